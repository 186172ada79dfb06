package io.zeocore.connections.store;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.OrganizationId;
import java.util.List;

/**
 * Thrown by {@link EffectStore#claimEffect(OrganizationId, String, List, Connection)} when the connection the caller
 * checked is no longer the one stored (changed, revoked or removed since it was read): nothing was written, the nonce
 * and the idempotency identity are still free. The caller reads the connection again, checks it again, and claims
 * with what it read.
 */
public final class ConnectionChangedException extends ConnectionStoreException {

  private static final long serialVersionUID = 1L;

  public ConnectionChangedException() {
    super("the connection changed since it was checked");
  }

  public ConnectionChangedException(Throwable cause) {
    super("the connection changed since it was checked", cause);
  }
}
