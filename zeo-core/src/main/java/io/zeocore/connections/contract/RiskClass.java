package io.zeocore.connections.contract;

/**
 * The declared risk class of a {@link ConnectorRevision}.
 */
public enum RiskClass {
  LOW,
  MODERATE,
  HIGH;
}
