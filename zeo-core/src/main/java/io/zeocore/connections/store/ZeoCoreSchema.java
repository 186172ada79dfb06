package io.zeocore.connections.store;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * ZeoCore's database schema, migrated by a <em>private</em> Flyway instance.
 *
 * <p>The Flyway instance is created, used and dropped inside {@link #migrate}; it is never a bean. (A {@code Flyway}
 * bean in a Spring Boot application would switch off the application's own migrations.) It keeps its history in table
 * {@value #HISTORY_TABLE} and reads only {@link Dialect#migrationLocation()}
 * ({@code classpath:db/zeocore/sqlite} or {@code classpath:db/zeocore/postgresql}), so it never sees or touches the
 * application's migrations, and the application's Flyway never sees ZeoCore's. On PostgreSQL every table, including
 * the history table, lives in schema {@value Dialect#POSTGRESQL_SCHEMA}, created if missing.
 *
 * <p>The schema enforces the store's invariants by itself, whatever code connects: history, receipts, evidence,
 * nonces and connector revisions are append-only (UPDATE, DELETE and an insert over an existing key, including
 * {@code INSERT OR REPLACE}, are refused by triggers); execution state changes must follow the transition table; the
 * idempotency identity and the (organization, nonce) pair are unique.
 *
 * <p>A database migrated by a newer ZeoCore (an applied version this build does not know) is refused.
 */
public final class ZeoCoreSchema {

  /** The Flyway history table of ZeoCore's own migrations. */
  public static final String HISTORY_TABLE = "zeocore_schema_history";

  private ZeoCoreSchema() {}

  /**
   * The outcome of {@link #migrate}.
   *
   * @param dialect the dialect migrated
   * @param schemaVersion the schema version after migration, for example {@code "2"}
   * @param migrationsExecuted how many migrations this call applied (0 when the schema was current)
   */
  public record Migration(Dialect dialect, String schemaVersion, int migrationsExecuted) {}

  /**
   * Brings the ZeoCore schema in {@code dataSource} to this build's version. Idempotent; safe to call at every
   * start-up. Two processes migrating the same empty database at once may collide on SQLite (which has no advisory
   * lock); the loser retries once and then finds the schema current.
   *
   * @throws IllegalStateException if migration fails or the database holds a newer ZeoCore schema
   */
  public static Migration migrate(DataSource dataSource, Dialect dialect) {
    if (dataSource == null || dialect == null) {
      throw new IllegalArgumentException("dataSource and dialect are required");
    }
    Flyway flyway = flyway(dataSource, dialect);
    MigrateResult result;
    try {
      result = flyway.migrate();
    } catch (FlywayException first) {
      try {
        result = flyway.migrate();
      } catch (FlywayException second) {
        second.addSuppressed(first);
        throw new IllegalStateException("ZeoCore schema migration failed: " + second.getMessage(), second);
      }
    }
    refuseNewerSchema(flyway);
    String version = currentVersion(flyway).orElseThrow(
        () -> new IllegalStateException("ZeoCore schema migration left no schema version"));
    return new Migration(dialect, version, result.migrationsExecuted);
  }

  /**
   * The applied schema version, read from {@value #HISTORY_TABLE} without migrating anything, or empty when ZeoCore's
   * schema was never migrated into this database. For health checks.
   *
   * @throws SQLException if the database cannot be reached
   */
  public static Optional<String> appliedVersion(DataSource dataSource, Dialect dialect) throws SQLException {
    return new DataSourceDatabase(dataSource, dialect).read(ZeoCoreSchema.appliedVersion(dialect));
  }

  /** The work that reads the applied version on an open session (used by the store's health information). */
  static SqlWork<Optional<String>> appliedVersion(Dialect dialect) {
    return session -> {
      String exists = dialect == Dialect.SQLITE
          ? "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + HISTORY_TABLE + "'"
          : "SELECT 1 FROM information_schema.tables WHERE table_schema = '" + Dialect.POSTGRESQL_SCHEMA
              + "' AND table_name = '" + HISTORY_TABLE + "'";
      if (!session.exists(exists)) {
        return Optional.empty();
      }
      return Optional.ofNullable(session.first("SELECT version FROM " + dialect.table(HISTORY_TABLE)
          + " WHERE success = " + (dialect == Dialect.SQLITE ? "1" : "TRUE")
          + " AND version IS NOT NULL ORDER BY installed_rank DESC LIMIT 1", row -> row.getString(1)));
    };
  }

  private static Flyway flyway(DataSource dataSource, Dialect dialect) {
    FluentConfiguration configuration = Flyway.configure(ZeoCoreSchema.class.getClassLoader())
        .dataSource(dataSource)
        .table(HISTORY_TABLE)
        .locations(dialect.migrationLocation())
        .failOnMissingLocations(true)
        .validateMigrationNaming(true)
        .cleanDisabled(true)
        // an application database (SQLite) may already hold the application's tables: baseline below version 1
        .baselineOnMigrate(true)
        .baselineVersion("0");
    dialect.schema().ifPresent(schema -> configuration.schemas(schema).defaultSchema(schema).createSchemas(true));
    return configuration.load();
  }

  private static void refuseNewerSchema(Flyway flyway) {
    boolean newer = Arrays.stream(flyway.info().applied())
        .map(MigrationInfo::getState)
        .anyMatch(state -> state == MigrationState.FUTURE_SUCCESS || state == MigrationState.FUTURE_FAILED);
    if (newer) {
      throw new IllegalStateException("database schema is newer than this ZeoCore build");
    }
  }

  private static Optional<String> currentVersion(Flyway flyway) {
    MigrationInfo current = flyway.info().current();
    return current == null || current.getVersion() == null
        ? Optional.empty() : Optional.of(current.getVersion().getVersion());
  }
}
