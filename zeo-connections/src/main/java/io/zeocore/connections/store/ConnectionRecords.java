package io.zeocore.connections.store;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.OrganizationId;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;

/**
 * Connections ({@code connections}, one JSON document per connection, replaced on save) and connector revisions
 * ({@code connector_revisions}, immutable JSON documents, cached after the first read).
 *
 * <p>Parsed documents are cached ({@link ParsedDocuments}, at most 1024 of each, least recently used evicted): a
 * revision is immutable once stored, so a cached one is answered without reading; a connection row is read on every
 * call (it can change), but its document is parsed again only when the stored text differs from the cached parse's.
 */
final class ConnectionRecords {

  private static final int REVISION_CACHE_LIMIT = 1024;
  private static final int CONNECTION_CACHE_LIMIT = 1024;

  private final StoreDatabase database;
  private final ParsedDocuments<ConnectorRevision> revisions = new ParsedDocuments<>(REVISION_CACHE_LIMIT);
  private final ParsedDocuments<Connection> connections = new ParsedDocuments<>(CONNECTION_CACHE_LIMIT);
  private final String upsertConnection;
  private final String selectConnection;
  private final String selectRevision;
  private final String insertRevision;

  ConnectionRecords(StoreDatabase database, Tables tables) {
    this.database = database;
    String connections = tables.qualify("connections");
    String connectorRevisions = tables.qualify("connector_revisions");
    upsertConnection = "INSERT INTO " + connections + " (organization_id, connection_id, document) VALUES (?, ?, ?)"
        + " ON CONFLICT (organization_id, connection_id) DO UPDATE SET document = excluded.document";
    selectConnection = "SELECT document FROM " + connections + " WHERE organization_id = ? AND connection_id = ?";
    selectRevision = "SELECT document FROM " + connectorRevisions + " WHERE organization_id = ? AND revision_id = ?";
    insertRevision = "INSERT INTO " + connectorRevisions + " (organization_id, revision_id, document)"
        + " VALUES (?, ?, ?)";
  }

  void saveConnection(OrganizationId organizationId, Connection connection) {
    OrganizationScope.require(organizationId, connection.organizationId(), "connection");
    String document = StoreDocuments.write(connection, "connection");
    database.write("saving the connection failed", s -> s.update(upsertConnection, organizationId.value(),
        connection.connectionId().value(), document));
  }

  Optional<Connection> getConnection(OrganizationId organizationId, ConnectionId connectionId) {
    Optional<String> document = database.read("reading the connection failed",
        s -> s.first(selectConnection, row -> row.getString(1), organizationId.value(), connectionId.value()));
    return document.map(stored -> parsed(organizationId, connectionId, stored));
  }

  private Connection parsed(OrganizationId organizationId, ConnectionId connectionId, String document) {
    return connections.parse(organizationId.value() + '\u0000' + connectionId.value(), document,
        text -> StoreDocuments.parse(text, Connection.class, "connection"));
  }

  /**
   * Whether {@code checked} is still the connection stored under its id in the organization, read in {@code s} (the
   * caller's transaction: on SQLite the writer's, so nothing can change it before that transaction commits).
   */
  boolean isStored(SqlSession s, OrganizationId organizationId, Connection checked) throws SQLException {
    Optional<String> document = s.first(selectConnection, row -> row.getString(1), organizationId.value(),
        checked.connectionId().value());
    return document.isPresent() && parsed(organizationId, checked.connectionId(), document.get()).equals(checked);
  }

  /**
   * The stored document {@code checked} was read from (the parse cache's text, when {@code checked} is its parse),
   * else its document as {@link #saveConnection} would write it: what a claim on PostgreSQL compares the stored row
   * with.
   */
  String documentOf(OrganizationId organizationId, Connection checked) {
    String document = connections.documentOf(organizationId.value() + '\u0000' + checked.connectionId().value(),
        checked);
    return document != null ? document : StoreDocuments.write(checked, "connection");
  }

  /**
   * Inserts the revision, or accepts an equal stored one; a different stored one is "connector revision is
   * immutable". When another process inserts it between the read and the insert (PostgreSQL, READ COMMITTED), the
   * whole transaction runs again and compares with the winner's.
   */
  void saveConnectorRevision(OrganizationId organizationId, ConnectorRevision revision) {
    Objects.requireNonNull(organizationId, "organizationId");
    String document = StoreDocuments.write(revision, "connector revision");
    SqlWork<Integer> save = s -> {
      String stored = s.first(selectRevision, row -> row.getString(1), organizationId.value(),
          revision.revisionId().value()).orElse(null);
      if (stored == null) {
        return s.update(insertRevision, organizationId.value(), revision.revisionId().value(), document);
      }
      if (!StoreDocuments.parse(stored, ConnectorRevision.class, "connector revision").equals(revision)) {
        throw new ConnectionStoreException("connector revision is immutable");
      }
      return 0;
    };
    try {
      database.write(save);
    } catch (SQLException e) {
      if (!database.isConflict(e)) {
        throw database.translate(e, "saving the connector revision failed");
      }
      // another process inserted it between our read and our insert (PostgreSQL, READ COMMITTED): compare with it
      database.write("saving the connector revision failed", save);
    }
  }

  Optional<ConnectorRevision> getConnectorRevision(OrganizationId organizationId, ConnectorRevisionId revisionId) {
    String key = organizationId.value() + '\u0000' + revisionId.value();
    ConnectorRevision cached = revisions.cached(key); // immutable once stored: no read needed
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<String> document = database.read("reading the connector revision failed",
        s -> s.first(selectRevision, row -> row.getString(1), organizationId.value(), revisionId.value()));
    return document.map(stored -> revisions.parse(key, stored,
        text -> StoreDocuments.parse(text, ConnectorRevision.class, "connector revision")));
  }
}
