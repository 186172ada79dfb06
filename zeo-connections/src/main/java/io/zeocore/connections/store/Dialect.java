package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The SQL dialects of the ZeoCore store. One {@link JdbcConnectionStore} implementation serves both; the dialect
 * chooses the migration scripts, the schema and how a write transaction begins.
 *
 * <ul>
 *   <li>{@link #SQLITE}: tables in the database's main schema; write transactions are {@code BEGIN IMMEDIATE} so that
 *       the write lock is taken before the first read and concurrent writers queue on {@code busy_timeout} instead of
 *       failing with {@code SQLITE_BUSY_SNAPSHOT}.
 *   <li>{@link #POSTGRESQL}: tables in schema {@value #POSTGRESQL_SCHEMA} (or a schema the caller chooses, see
 *       {@link JdbcConnectionStore.Builder#schema(String)}); every write transaction runs at {@code READ COMMITTED},
 *       with unique constraints and compare-and-set updates deciding every race between processes (see
 *       {@link JdbcConnectionStore}).
 * </ul>
 */
public enum Dialect {

  /** SQLite 3 (the embedded default). */
  SQLITE,

  /** PostgreSQL 12 or later; tables live in schema {@value #POSTGRESQL_SCHEMA} unless the caller chooses another. */
  POSTGRESQL;

  /** The default schema that holds ZeoCore's tables on PostgreSQL. */
  public static final String POSTGRESQL_SCHEMA = "zeocore";

  /** The Flyway location of this dialect's migrations, for example {@code classpath:db/zeocore/sqlite}. */
  public String migrationLocation() {
    return switch (this) {
      case SQLITE -> "classpath:db/zeocore/sqlite";
      case POSTGRESQL -> "classpath:db/zeocore/postgresql";
    };
  }

  /**
   * The default schema that holds ZeoCore's tables ({@value #POSTGRESQL_SCHEMA} on PostgreSQL), or empty for SQLite,
   * which uses the database file's main schema.
   */
  public Optional<String> schema() {
    return this == POSTGRESQL ? Optional.of(POSTGRESQL_SCHEMA) : Optional.empty();
  }

  /**
   * The dialect of a JDBC URL ({@code jdbc:sqlite:...} or {@code jdbc:postgresql:...}).
   *
   * @throws IllegalArgumentException for any other URL; the message never contains the URL (it may hold a password)
   */
  public static Dialect fromJdbcUrl(String jdbcUrl) {
    if (jdbcUrl == null) {
      throw new IllegalArgumentException("jdbc url is required");
    }
    String lower = jdbcUrl.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (lower.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException(
        "unsupported jdbc url: ZeoCore's store supports jdbc:sqlite: and jdbc:postgresql: only");
  }

  /**
   * The dialect of the database behind {@code dataSource}, read from its metadata (one connection is borrowed and
   * returned).
   *
   * @throws IllegalArgumentException if the product is neither SQLite nor PostgreSQL
   * @throws SQLException if no connection can be obtained
   */
  public static Dialect detect(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      DatabaseMetaData metaData = connection.getMetaData();
      String product = metaData.getDatabaseProductName().toLowerCase(Locale.ROOT);
      if (product.contains("sqlite")) {
        return SQLITE;
      }
      if (product.contains("postgres")) {
        return POSTGRESQL;
      }
      throw new IllegalArgumentException("unsupported database product for ZeoCore's store: "
          + metaData.getDatabaseProductName() + " (supported: SQLite, PostgreSQL)");
    }
  }
}
