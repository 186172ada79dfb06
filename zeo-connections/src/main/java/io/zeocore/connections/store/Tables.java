package io.zeocore.connections.store;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where ZeoCore's tables live: the dialect's strategy and, on PostgreSQL, the schema that holds them. Names SQL text
 * uses. The schema name is validated by the strategy ({@link SqlDialect#schemaName}) before it gets here.
 *
 * @param sql the dialect's strategy
 * @param schema the PostgreSQL schema, or {@code null} on SQLite (the connection's main schema)
 */
record Tables(SqlDialect sql, @Nullable String schema) {

  /**
   * The tables of {@code dialect} in {@code schema}; a {@code null} schema means the dialect's default
   * ({@value Dialect#POSTGRESQL_SCHEMA} on PostgreSQL).
   *
   * @throws IllegalArgumentException if a schema is given for SQLite, or the name is invalid
   */
  static Tables of(Dialect dialect, @Nullable String schema) {
    return SqlDialect.of(dialect).tables(schema);
  }

  Dialect dialect() {
    return sql.dialect();
  }

  /** {@code table} qualified with the schema, for SQL text. */
  String qualify(String table) {
    return schema == null ? table : schema + "." + table;
  }

  Optional<String> schemaName() {
    return Optional.ofNullable(schema);
  }
}
