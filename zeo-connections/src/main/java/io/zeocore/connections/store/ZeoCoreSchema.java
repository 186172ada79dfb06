package io.zeocore.connections.store;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZeoCore's database schema, migrated by a <em>private</em> Flyway instance.
 *
 * <p>The Flyway instance is created, used and dropped inside {@link #migrate}; it is never a bean. (A {@code Flyway}
 * bean in a Spring Boot application would switch off the application's own migrations.) It keeps its history in table
 * {@value #HISTORY_TABLE} and reads only {@link Dialect#migrationLocation()}
 * ({@code classpath:db/zeocore/sqlite} or {@code classpath:db/zeocore/postgresql}), so it never sees or touches the
 * application's migrations, and the application's Flyway never sees ZeoCore's. On PostgreSQL every table, including
 * the history table, lives in one schema, {@value Dialect#POSTGRESQL_SCHEMA} unless the caller names another, created
 * if missing; the trigger functions name their tables with that schema, so they behave the same whatever
 * {@code search_path} a connection has. PostgreSQL needs {@code org.flywaydb:flyway-database-postgresql} on the class
 * path (a clear error says so when it is missing); Flyway serializes concurrent migrations of one PostgreSQL database
 * with an advisory lock.
 *
 * <p>The schema enforces the store's invariants by itself, whatever code connects: history, receipts, evidence,
 * nonces and connector revisions are append-only (UPDATE and DELETE are refused by triggers; on SQLite also an insert
 * over an existing key, including {@code INSERT OR REPLACE}; on PostgreSQL also {@code TRUNCATE}, and
 * {@code INSERT ... ON CONFLICT DO UPDATE}, which fires the UPDATE trigger); effect state changes must follow the
 * transition table; the idempotency identity (among non-refused effects) and the (organization, nonce) pair are
 * unique.
 *
 * <p>A database migrated by a newer ZeoCore (a version in {@value #HISTORY_TABLE} above {@link #latestVersion} of its
 * dialect, applied or failed) is refused with {@link ConnectionStoreException} "database schema is newer than this
 * ZeoCore build" <em>before</em> anything touches the schema: the history table is read with plain SQL first, and
 * Flyway (which would create a schema, baseline, validate or apply an older missing migration) is only started when no
 * newer version is recorded. The same check runs again after migrating, for a newer build that migrated in between.
 */
public final class ZeoCoreSchema {

  /** The Flyway history table of ZeoCore's own migrations. */
  public static final String HISTORY_TABLE = "zeocore_schema_history";

  /**
   * The highest schema version this build ships for {@code dialect}: 6 on SQLite ({@code
   * V6__dispatch_clock_in_the_execution_row.sql}), 5 on PostgreSQL ({@code V5__one_round_trip_per_commit.sql}). The
   * dialects share the tables of versions 1 to 4; from version 5 on each makes the effect path cheaper in its own way.
   * Read from the migrations on the class path.
   */
  public static String latestVersion(Dialect dialect) {
    return BundledMigrations.shipped(dialect).latestVersion();
  }

  private static final Logger LOG = LoggerFactory.getLogger(ZeoCoreSchema.class);

  private static final String NEWER_SCHEMA = "database schema is newer than this ZeoCore build";

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
   * Brings the ZeoCore schema in {@code dataSource} to this build's version, on PostgreSQL in schema
   * {@value Dialect#POSTGRESQL_SCHEMA}. Same as {@link #migrate(DataSource, Dialect, String)} with a {@code null}
   * schema.
   */
  public static Migration migrate(DataSource dataSource, Dialect dialect) {
    return migrate(dataSource, dialect, null);
  }

  /**
   * Brings the ZeoCore schema in {@code dataSource} to this build's version. Idempotent; safe to call at every
   * start-up. Two processes migrating the same empty database at once may collide on SQLite (which has no advisory
   * lock); the loser retries once and then finds the schema current.
   *
   * @param schema the PostgreSQL schema that holds ZeoCore's tables and history table, created if missing;
   *     {@code null} for {@value Dialect#POSTGRESQL_SCHEMA}. 1 to 63 lower-case letters, digits and underscores,
   *     starting with a letter or underscore and not with {@code pg_}. Must be {@code null} on SQLite.
   * @throws IllegalArgumentException if the schema name is invalid or given for SQLite
   * @throws ConnectionStoreException "database schema is newer than this ZeoCore build" when {@value #HISTORY_TABLE}
   *     records a version above the dialect's {@link #latestVersion}; nothing was changed in the database
   * @throws IllegalStateException if migration fails or the database cannot be reached
   */
  public static Migration migrate(DataSource dataSource, Dialect dialect, @Nullable String schema) {
    if (dataSource == null || dialect == null) {
      throw new IllegalArgumentException("dataSource and dialect are required");
    }
    Tables tables = Tables.of(dialect, schema);
    return migrate(new DataSourceDatabase(dataSource, tables.sql()), () -> dataSource, tables);
  }

  /**
   * {@link #migrate(DataSource, Dialect, String)} that reads the history through {@code database} (for the embedded
   * file: the store's own open connection) and hands {@code flywaySource} to Flyway only when the history does not
   * already hold exactly the shipped migrations.
   */
  static Migration migrate(StoreDatabase database, Supplier<DataSource> flywaySource, Tables tables) {
    Dialect dialect = tables.dialect();
    requireFlywaySupport(dialect);
    List<BundledMigrations.Applied> history = history(database, tables);
    BundledMigrations bundled = BundledMigrations.shipped(dialect);
    if (bundled.appliedIn(history)) {
      LOG.info("ZeoCore store schema is current (version {}, {} migrations verified by checksum)",
          bundled.latestVersion(), bundled.scripts().size());
      return new Migration(dialect, bundled.latestVersion(), 0);
    }
    refuseNewerSchema(history, bundled.latestVersion());
    DataSource dataSource = flywaySource.get();
    Flyway flyway = flyway(dataSource, tables);
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
    // one info() after migrating: each call scans the migrations and reads the history table again
    MigrationInfoService info = flyway.info();
    refuseNewerSchema(info);
    String version = currentVersion(info).orElseThrow(
        () -> new IllegalStateException("ZeoCore schema migration left no schema version"));
    LOG.info("ZeoCore store schema migrated to version {} ({} migrations applied)", version,
        result.migrationsExecuted);
    return new Migration(dialect, version, result.migrationsExecuted);
  }

  /**
   * The applied schema version, read from {@value #HISTORY_TABLE} without migrating anything, or empty when ZeoCore's
   * schema was never migrated into this database (on PostgreSQL: into schema {@value Dialect#POSTGRESQL_SCHEMA}).
   * For health checks.
   *
   * @throws SQLException if the database cannot be reached
   */
  public static Optional<String> appliedVersion(DataSource dataSource, Dialect dialect) throws SQLException {
    return appliedVersion(dataSource, dialect, null);
  }

  /**
   * The applied schema version in {@code schema} (PostgreSQL; {@code null} for {@value Dialect#POSTGRESQL_SCHEMA},
   * and always {@code null} on SQLite), read without migrating anything; empty when never migrated there.
   *
   * @throws IllegalArgumentException if the schema name is invalid or given for SQLite
   * @throws SQLException if the database cannot be reached
   */
  public static Optional<String> appliedVersion(DataSource dataSource, Dialect dialect, @Nullable String schema)
      throws SQLException {
    Tables tables = Tables.of(dialect, schema);
    return new DataSourceDatabase(dataSource, tables.sql()).read(appliedVersion(tables));
  }

  /** The work that reads the applied version on an open session (used by the store's health information). */
  static SqlWork<Optional<String>> appliedVersion(Tables tables) {
    return session -> {
      boolean migrated = tables.sql().hasTable(session, tables, HISTORY_TABLE);
      if (!migrated) {
        return Optional.empty();
      }
      return session.first("SELECT version FROM " + tables.qualify(HISTORY_TABLE)
          + " WHERE success = " + tables.sql().trueLiteral()
          + " AND version IS NOT NULL ORDER BY installed_rank DESC LIMIT 1", row -> row.getString(1));
    };
  }

  /** Flyway finds PostgreSQL support through a plugin jar; the dialect's strategy names it when it is missing. */
  private static void requireFlywaySupport(Dialect dialect) {
    SqlDialect.of(dialect).requireFlywaySupport();
  }

  private static Flyway flyway(DataSource dataSource, Tables tables) {
    Dialect dialect = tables.dialect();
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
    tables.schemaName().ifPresent(
        schema -> configuration.schemas(schema).defaultSchema(schema).createSchemas(true));
    return configuration.load();
  }

  /**
   * The rows of {@value #HISTORY_TABLE} (when it exists), read with plain SQL before Flyway starts. Reads only: no
   * table, schema or row is created.
   */
  private static List<BundledMigrations.Applied> history(StoreDatabase database, Tables tables) {
    try {
      return database.read(recordedHistory(tables));
    } catch (SQLException e) {
      throw new IllegalStateException("reading ZeoCore's schema history failed: " + e.getMessage(), e);
    }
  }

  /** Refuses a database whose history records a version above {@code latestShipped}. */
  private static void refuseNewerSchema(List<BundledMigrations.Applied> history, String latestShipped) {
    MigrationVersion latest = MigrationVersion.fromVersion(latestShipped);
    for (BundledMigrations.Applied row : history) {
      if (row.version() != null && isNewer(row.version(), latest)) {
        throw new ConnectionStoreException(NEWER_SCHEMA);
      }
    }
  }

  private static boolean isNewer(String version, MigrationVersion latest) {
    try {
      return MigrationVersion.fromVersion(version).compareTo(latest) > 0;
    } catch (RuntimeException e) {
      return true; // a version this build cannot even parse was written by another build
    }
  }

  /** Every row of {@value #HISTORY_TABLE}, applied or failed; empty when the table does not exist. */
  private static SqlWork<List<BundledMigrations.Applied>> recordedHistory(Tables tables) {
    return session -> {
      boolean migrated = tables.sql().hasTable(session, tables, HISTORY_TABLE);
      if (!migrated) {
        return List.of();
      }
      return session.list("SELECT version, script, checksum, success FROM " + tables.qualify(HISTORY_TABLE),
          row -> {
            int checksum = row.getInt(3);
            return new BundledMigrations.Applied(row.getString(1), row.getString(2),
                row.wasNull() ? null : checksum, row.getBoolean(4));
          });
    };
  }

  private static void refuseNewerSchema(MigrationInfoService info) {
    boolean newer = Arrays.stream(info.applied())
        .map(MigrationInfo::getState)
        .anyMatch(state -> state == MigrationState.FUTURE_SUCCESS || state == MigrationState.FUTURE_FAILED);
    if (newer) {
      throw new ConnectionStoreException(NEWER_SCHEMA);
    }
  }

  private static Optional<String> currentVersion(MigrationInfoService info) {
    MigrationInfo current = info.current();
    return current == null || current.getVersion() == null
        ? Optional.empty() : Optional.of(current.getVersion().getVersion());
  }
}
