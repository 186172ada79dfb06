package io.zeocore.connections.contract;

/**
 * The last observed health of a {@link Connection}; informational, never checked by the orchestrator.
 */
public enum ConnectionHealth {
  UNKNOWN,
  HEALTHY,
  DEGRADED,
  UNREACHABLE;
}
