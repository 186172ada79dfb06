package io.zeocore.connections.effect;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.OrganizationId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The connection an orchestrator last read and checked, per organization and connection id: what its next effect on
 * that connection is checked against and claimed with, so that an effect needs no read of the connection before its
 * claim. Never trusted alone: the claim refuses a connection that is no longer the stored one, and any check that
 * fails on it is decided again on a fresh read. Bounded: past {@value #LIMIT} connections it starts again empty.
 */
final class CheckedConnections {

  static final int LIMIT = 1024;

  private record Key(OrganizationId organizationId, ConnectionId connectionId) {}

  private final Map<Key, Connection> connections = new ConcurrentHashMap<>();

  @Nullable Connection get(OrganizationId organizationId, ConnectionId connectionId) {
    return connections.get(new Key(organizationId, connectionId));
  }

  void remember(OrganizationId organizationId, Connection connection) {
    if (connections.size() >= LIMIT) {
      connections.clear();
    }
    connections.put(new Key(organizationId, connection.connectionId()), connection);
  }

  void forget(OrganizationId organizationId, ConnectionId connectionId) {
    connections.remove(new Key(organizationId, connectionId));
  }
}
