package io.zeocore.connections.contract;

/**
 * The lifecycle status of a {@link Connection}; only {@link #ACTIVE} connections may execute. A {@link #REVOKED}
 * connection carries {@code revoked_at}.
 */
public enum ConnectionStatus {
  PENDING,
  ACTIVE,
  REPAIR_REQUIRED,
  REVOKED;
}
