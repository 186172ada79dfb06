package io.zeocore.connections.store;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where ZeoCore's tables live: the dialect and, on PostgreSQL, the schema that holds them. Names SQL text uses.
 *
 * <p>The schema name is concatenated into SQL text, so it is validated strictly: lower-case ASCII letters, digits and
 * underscores, starting with a letter or underscore, at most 63 characters (PostgreSQL's identifier limit), and not
 * starting with {@code pg_} (reserved by PostgreSQL). Lower case because PostgreSQL folds unquoted identifiers to it.
 *
 * @param dialect the dialect
 * @param schema the PostgreSQL schema, or {@code null} on SQLite (the connection's main schema)
 */
record Tables(Dialect dialect, String schema) {

  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /**
   * The tables of {@code dialect} in {@code schema}; a {@code null} schema means the dialect's default
   * ({@value Dialect#POSTGRESQL_SCHEMA} on PostgreSQL).
   *
   * @throws IllegalArgumentException if a schema is given for SQLite, or the name breaks the rules above
   */
  static Tables of(Dialect dialect, String schema) {
    if (dialect == null) {
      throw new IllegalArgumentException("dialect is required");
    }
    if (dialect == Dialect.SQLITE) {
      if (schema != null) {
        throw new IllegalArgumentException("a schema name applies to PostgreSQL only; SQLite keeps ZeoCore's tables"
            + " in the database file's main schema");
      }
      return new Tables(dialect, null);
    }
    String name = schema == null ? Dialect.POSTGRESQL_SCHEMA : schema;
    if (!SCHEMA_NAME.matcher(name).matches() || name.startsWith("pg_")) {
      throw new IllegalArgumentException("invalid schema name '" + name + "' for ZeoCore's tables: use 1 to 63"
          + " lower-case letters,"
          + " digits and underscores, starting with a letter or underscore and not with pg_");
    }
    return new Tables(dialect, name);
  }

  /** {@code table} qualified with the schema, for SQL text. */
  String qualify(String table) {
    return schema == null ? table : schema + "." + table;
  }

  Optional<String> schemaName() {
    return Optional.ofNullable(schema);
  }
}
