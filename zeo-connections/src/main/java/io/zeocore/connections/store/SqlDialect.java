package io.zeocore.connections.store;

import java.sql.SQLException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Everything that differs between SQLite and PostgreSQL in the store, in one strategy per {@link Dialect}: where the
 * tables live, how one write transaction begins and ends, how a failure says "unique key already taken" and which
 * words a named constraint stands for, and what the schema migration needs. The rest of the store is written once
 * against this interface; no other class asks which dialect it runs on.
 */
sealed interface SqlDialect permits SqliteDialect, PostgresDialect {

  /** The strategy of {@code dialect}: the only place that maps the public enum to its behaviour. */
  static SqlDialect of(Dialect dialect) {
    if (dialect == null) {
      throw new IllegalArgumentException("dialect is required");
    }
    return switch (dialect) {
      case SQLITE -> SqliteDialect.INSTANCE;
      case POSTGRESQL -> PostgresDialect.INSTANCE;
    };
  }

  /** The public name of this dialect. */
  Dialect dialect();

  // ---------------------------------------------------------------------------------------------------------------
  // Where the tables live

  /**
   * The validated schema for ZeoCore's tables, or {@code null} when the dialect keeps them in the connection's main
   * schema; {@code requested} {@code null} means the dialect's default.
   *
   * @throws IllegalArgumentException if the dialect takes no schema name, or the name is invalid
   */
  @Nullable String schemaName(@Nullable String requested);

  /** The tables of this dialect in {@code requested} (see {@link #schemaName}). */
  default Tables tables(@Nullable String requested) {
    return new Tables(this, schemaName(requested));
  }

  /** Whether a JDBC URL of this dialect names a file the store opens and owns itself (SQLite), not a server. */
  boolean embedded();

  /**
   * An SQL expression for the database's own clock now, in epoch microseconds: what recovery judges staleness and
   * leases by, so that two application hosts never compare their clocks with each other.
   */
  String databaseNowMicros();

  /**
   * When an effect {@code e} reached {@code DISPATCH_STARTED} by the database's clock, as an SQL expression over
   * {@code e} and its {@code dispatch_clock} row {@code d} (left-joined), or {@code NULL} for an effect that reached
   * it before schema version 4. PostgreSQL keeps it in {@code dispatch_clock}; SQLite, from schema version 6, in the
   * effect's row ({@code dispatch_started_db_at}), and before that in {@code dispatch_clock}.
   */
  String dispatchStartedAt();

  /**
   * What the statement that moves an effect to {@code DISPATCH_STARTED} adds to its {@code SET} list: on SQLite
   * (schema version 6) {@code , dispatch_started_db_at = <the database's clock>}, which the schema requires of that
   * statement; on PostgreSQL nothing (a trigger writes {@code dispatch_clock}).
   */
  String dispatchClockAssignment();

  /**
   * What an effect's insert adds to its column list for the effect's history: on SQLite (schema version 7)
   * {@code , history}; on PostgreSQL (schema version 6) nothing, as the schema's own trigger writes that column.
   */
  String historyInsertColumn();

  /**
   * The value of {@link #historyInsertColumn} (with its leading comma), as SQL over the insert's own parameters for
   * the snapshot's {@code state}, {@code updated_at} and {@code completed_at} (numbered parameters such as
   * {@code ?11}): on SQLite the one-snapshot JSON array the schema requires; on PostgreSQL nothing.
   */
  String historyInsertValue(String state, String updatedAt, String completedAt);

  /**
   * What a compare-and-set of an effect adds to its {@code SET} list, as SQL over the statement's parameters for
   * the new {@code state}, {@code updated_at} and {@code completed_at}: on SQLite the new snapshot appended to the
   * row's history, which the schema requires of every update; on PostgreSQL nothing (the schema's trigger appends
   * it).
   */
  String historyAppend(String state, String updatedAt, String completedAt);

  /**
   * The query for one effect's snapshots, oldest first, with the columns of {@code EffectRecords.readEffect}
   * and two parameters, the organization and the effect: the elements of the row's history, a JSON array of
   * {@code [state, updated_at, completed_at]}.
   *
   * @param identityColumns the identity columns qualified by the alias {@code e} of {@code executions}
   */
  String selectHistory(Tables tables, String identityColumns);

  /**
   * Whether the schema has the functions {@code zeocore_claim} and {@code zeocore_commit_outcome} (PostgreSQL, schema
   * version 5): an effect's claim and outcome are then one call each, one round trip each, instead of a statement per
   * row. SQLite, in process, gains nothing from them.
   */
  boolean commitsEffectsByFunction();

  /**
   * The value of {@code sequence} for a new row of {@code table} ({@code receipts} or {@code evidence_references}), as
   * an SQL expression over the insert's first two parameters ({@code ?1} the organization, {@code ?2} the effect),
   * or {@code null} when the column numbers itself. PostgreSQL draws it from the column's own identity sequence;
   * SQLite keys both tables by effect (receipts from schema version 5, evidence from version 8) and numbers each
   * effect's rows from 1, so the insert takes the next number within the effect (one transaction writes at a
   * time there, so two inserts never take the same number).
   */
  @Nullable String nextSequenceInEffect(String table);

  // ---------------------------------------------------------------------------------------------------------------
  // Write transactions (see Transactions#inTransaction for the bracket)

  /** Begins a write transaction; returns whether the connection's manual-commit mode must be restored afterwards. */
  boolean begin(SqlSession session) throws SQLException;

  void commit(SqlSession session) throws SQLException;

  /** Rolls back, adding any rollback failure to {@code failure} as suppressed (never throws). */
  void rollback(SqlSession session, Throwable failure);

  /** Restores the connection's auto-commit mode after a transaction. */
  void end(SqlSession session, boolean restoreManualCommit) throws SQLException;

  // ---------------------------------------------------------------------------------------------------------------
  // Failures (see StoreFailures for the guard triggers' words, common to both)

  /** Whether {@code e} itself (not its causes) is the database refusing a duplicate unique or primary key. */
  boolean isUniqueViolation(SQLException e);

  /**
   * The schema's words for a unique violation {@code e} (itself, not its causes) that names one of ZeoCore's
   * constraints, or {@code null}. Never SQL text or key values.
   */
  @Nullable String constraintWords(SQLException e);

  /** The constraint and unique-index names this dialect translates into words, with those words. */
  Map<String, String> constraintMessages();

  // ---------------------------------------------------------------------------------------------------------------
  // Schema migration

  /** Fails with a message naming the missing artifact when Flyway cannot handle this dialect. */
  void requireFlywaySupport();

  /** Whether table {@code table} exists where {@code tables} keeps ZeoCore's tables. */
  boolean hasTable(SqlSession session, Tables tables, String table) throws SQLException;

  /** The SQL literal for a true value of Flyway's {@code success} column. */
  String trueLiteral();
}
