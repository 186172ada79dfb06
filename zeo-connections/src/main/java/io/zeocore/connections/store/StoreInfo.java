package io.zeocore.connections.store;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A read-only health snapshot of a {@link JdbcConnectionStore}, for health indicators and diagnostics. Never carries a
 * JDBC URL, user name or password.
 *
 * @param dialect the store's dialect
 * @param schema the PostgreSQL schema that holds the store's tables, or {@code null} on SQLite
 * @param reachable whether a query against the database succeeded just now
 * @param schemaVersion the applied ZeoCore schema version (from {@value ZeoCoreSchema#HISTORY_TABLE} in the store's
 *     schema), or {@code null} when unreachable or never migrated
 * @param databaseFile the embedded SQLite file, or {@code null} when the store runs on a data source
 * @param fileModes the permissions ({@code rw-------} form) of the embedded file and each side file that exists, keyed
 *     by file name; empty when not embedded or the file system has no POSIX permissions
 * @param failure why the store is unreachable, or {@code null} when reachable
 */
public record StoreInfo(
    Dialect dialect,
    @Nullable String schema,
    boolean reachable,
    @Nullable String schemaVersion,
    @Nullable Path databaseFile,
    Map<String, String> fileModes,
    @Nullable String failure) {

  public StoreInfo {
    fileModes = fileModes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(fileModes));
  }

  /** A snapshot without a schema name (SQLite, or PostgreSQL's default {@value Dialect#POSTGRESQL_SCHEMA}). */
  public StoreInfo(Dialect dialect, boolean reachable, @Nullable String schemaVersion, @Nullable Path databaseFile,
      Map<String, String> fileModes, @Nullable String failure) {
    this(dialect, dialect == null ? null : dialect.schema().orElse(null), reachable, schemaVersion, databaseFile,
        fileModes, failure);
  }
}
