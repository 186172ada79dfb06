package io.zeocore.autoconfigure.connections;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code zeocore.connections.store.url} points at PostgreSQL, but the application's class path lacks the PostgreSQL
 * JDBC driver ({@code org.postgresql:postgresql}), Flyway's PostgreSQL module
 * ({@code org.flywaydb:flyway-database-postgresql}), or both. Thrown before the store opens any connection; the failure
 * analyzer names what is missing and the artifacts to add. The URL is never included: it may carry credentials.
 */
public class PostgresStoreSupportMissingException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient List<PostgresStoreSupport> missing;

  PostgresStoreSupportMissingException(List<PostgresStoreSupport> missing) {
    super("zeocore.connections.store.url points at PostgreSQL, but the class path lacks "
        + missing.stream().map(PostgresStoreSupport::coordinates).collect(Collectors.joining(" and ")));
    this.missing = List.copyOf(missing);
  }

  /** The Maven coordinates ({@code groupId:artifactId}) of what is missing. */
  public List<String> missingArtifacts() {
    return missing.stream().map(PostgresStoreSupport::coordinates).toList();
  }

  List<PostgresStoreSupport> missing() {
    return missing;
  }
}
