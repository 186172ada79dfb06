package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL: tables in schema {@value Dialect#POSTGRESQL_SCHEMA} or one the caller chooses; many writers at once.
 *
 * <p>Schema names are concatenated into SQL text, so they are validated strictly: lower-case ASCII letters, digits and
 * underscores, starting with a letter or underscore, at most 63 characters (PostgreSQL's identifier limit), and not
 * starting with {@code pg_} (reserved by PostgreSQL). Lower case because PostgreSQL folds unquoted identifiers to it.
 *
 * <p>Transactions: auto-commit off for the transaction, {@code SET TRANSACTION ISOLATION LEVEL READ COMMITTED} as its
 * first statement, {@code commit()}, then auto-commit restored. The isolation level is set per transaction, whatever
 * the pool's default: the store's races are decided by unique constraints (a concurrent insert of the same key waits
 * for the first transaction, then fails with SQLSTATE 23505, which the store reads as "lost the claim") and by
 * compare-and-set updates ({@code UPDATE ... WHERE state = ?}: a concurrent update waits for the row lock, re-reads
 * the committed row and matches zero rows, which the store reads as "changed concurrently"). Under
 * {@code REPEATABLE READ} or {@code SERIALIZABLE} both races would instead end in serialization failures (SQLSTATE
 * 40001) that need a retry loop and turn a lost claim into an error; {@code READ COMMITTED} keeps them single-shot
 * and exact. Nothing in a write transaction relies on a snapshot older than its own statements.
 *
 * <p>Failures: uniqueness is left to constraints alone (a trigger cannot see a concurrent, uncommitted row), so a
 * unique violation (SQLSTATE {@code 23505}) is given the words of the constraint or unique index it names, the names
 * of {@code db/zeocore/postgresql} ({@link #UNIQUE_CONSTRAINTS}; {@code PostgresConstraintMessagesTest} checks the map
 * against the migrated schema's catalogue). The words are those the SQLite guards raise.
 *
 * <p>Migration: Flyway finds PostgreSQL support through a plugin jar; without it the failure would name no artifact.
 */
final class PostgresDialect implements SqlDialect {

  static final PostgresDialect INSTANCE = new PostgresDialect();

  private static final String UNIQUE_VIOLATION = "23505";
  private static final String FLYWAY_POSTGRESQL_PLUGIN = "org.flywaydb.database.postgresql.PostgreSQLDatabaseType";
  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /** PostgreSQL unique constraints and indexes of the ZeoCore schema, with the words the SQLite guards use. */
  static final Map<String, String> UNIQUE_CONSTRAINTS = Map.ofEntries(
      Map.entry("connector_revisions_pkey", "connector revision is immutable"),
      Map.entry("executions_pkey", "execution id or idempotency identity already exists"),
      Map.entry("executions_idempotency_identity", "execution id or idempotency identity already exists"),
      Map.entry("authorization_nonces_pkey", "authorization nonce was already used"),
      Map.entry("evidence_references_ref_once", "evidence reference already exists"),
      Map.entry("evidence_references_execution_ref", "evidence reference already exists"),
      Map.entry("receipts_recorded_at_once", "receipt timestamp already exists"),
      Map.entry("receipts_one_outcome", "outcome receipt already exists"),
      Map.entry("receipts_one_ambiguity", "ambiguity receipt already exists"),
      Map.entry("observations_pkey", "observation id or idempotency identity already exists"),
      Map.entry("observations_idempotency_identity", "observation id or idempotency identity already exists"),
      Map.entry("observation_receipts_pkey", "observation outcome already exists"),
      Map.entry("dispatch_clock_pkey", "dispatch start was already recorded"),
      Map.entry("recovery_leases_pkey", "recovery lease is already held"));

  /** A constraint name as a whole word; PostgreSQL quotes it in every language it speaks. */
  private static final Pattern CONSTRAINT_NAME = Pattern.compile("\\b([a-z_]+)\\b");

  private PostgresDialect() {}

  @Override
  public Dialect dialect() {
    return Dialect.POSTGRESQL;
  }

  @Override
  public String schemaName(@Nullable String requested) {
    String name = requested == null ? Dialect.POSTGRESQL_SCHEMA : requested;
    if (!SCHEMA_NAME.matcher(name).matches() || name.startsWith("pg_")) {
      throw new IllegalArgumentException("invalid schema name '" + name + "' for ZeoCore's tables: use 1 to 63"
          + " lower-case letters,"
          + " digits and underscores, starting with a letter or underscore and not with pg_");
    }
    return name;
  }

  @Override
  public String databaseNowMicros() {
    return "(extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT";
  }

  @Override
  public String dispatchStartedAt() {
    return "d.started_db_at";
  }

  @Override
  public String dispatchClockAssignment() {
    return "";
  }

  @Override
  public String historyInsertColumn() {
    return "";
  }

  @Override
  public String historyInsertValue(String state, String updatedAt, String completedAt) {
    return "";
  }

  @Override
  public String historyAppend(String state, String updatedAt, String completedAt) {
    return "";
  }

  @Override
  public String selectHistory(Tables tables, String identityColumns) {
    return "SELECT " + identityColumns + ", s.value ->> 0 AS state, e.created_at AS created_at,"
        + " (s.value ->> 1)::bigint AS updated_at, (s.value ->> 2)::bigint AS completed_at"
        + " FROM " + tables.qualify("executions") + " e"
        + " CROSS JOIN LATERAL jsonb_array_elements(e.history) WITH ORDINALITY AS s(value, position)"
        + " WHERE e.organization_id = ? AND e.execution_id = ? ORDER BY s.position";
  }

  @Override
  public boolean embedded() {
    return false;
  }

  @Override
  public boolean begin(SqlSession session) throws SQLException {
    Connection connection = session.connection();
    boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    try {
      session.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
    } catch (SQLException | RuntimeException e) {
      rollback(session, e);
      if (autoCommit) {
        try {
          connection.setAutoCommit(true);
        } catch (SQLException restore) {
          e.addSuppressed(restore);
        }
      }
      throw e;
    }
    return !autoCommit;
  }

  @Override
  public void commit(SqlSession session) throws SQLException {
    session.connection().commit();
  }

  @Override
  public void rollback(SqlSession session, Throwable failure) {
    try {
      session.connection().rollback();
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  @Override
  public void end(SqlSession session, boolean restoreManualCommit) throws SQLException {
    if (!restoreManualCommit) {
      session.connection().setAutoCommit(true);
    }
  }

  @Override
  public boolean commitsEffectsByFunction() {
    return true;
  }

  @Override
  public @Nullable String nextSequenceInEffect(String table) {
    return null; // an identity column
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return UNIQUE_VIOLATION.equals(e.getSQLState());
  }

  /** Only the first line is read: the detail lines that follow quote the duplicate key's values. */
  @Override
  public @Nullable String constraintWords(SQLException e) {
    String message = e.getMessage();
    if (!isUniqueViolation(e) || message == null) {
      return null;
    }
    int end = message.indexOf('\n');
    Matcher names = CONSTRAINT_NAME.matcher(end < 0 ? message : message.substring(0, end));
    while (names.find()) {
      String words = UNIQUE_CONSTRAINTS.get(names.group(1));
      if (words != null) {
        return words;
      }
    }
    return null;
  }

  @Override
  public Map<String, String> constraintMessages() {
    return UNIQUE_CONSTRAINTS;
  }

  @Override
  public void requireFlywaySupport() {
    try {
      Class.forName(FLYWAY_POSTGRESQL_PLUGIN, false, PostgresDialect.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("ZeoCore's PostgreSQL store needs org.flywaydb:flyway-database-postgresql on"
          + " the class path for its schema migrations");
    }
  }

  @Override
  public boolean hasTable(SqlSession session, Tables tables, String table) throws SQLException {
    return session.exists("SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = ? AND tablename = ?",
        tables.schema(), table);
  }

  @Override
  public String trueLiteral() {
    return "TRUE";
  }
}
