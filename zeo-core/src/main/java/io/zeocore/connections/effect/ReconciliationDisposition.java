package io.zeocore.connections.effect;

/**
 * What an {@link EffectReconciler} established about an ambiguous effect; {@link #UNRESOLVED} leaves the
 * execution {@code AMBIGUOUS}.
 */
public enum ReconciliationDisposition {
  CONFIRMED,
  FAILED_SAFE,
  UNRESOLVED;
}
