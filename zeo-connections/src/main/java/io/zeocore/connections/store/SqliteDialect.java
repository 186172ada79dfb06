package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * SQLite: tables in the database file's main schema; one writer at a time.
 *
 * <p>Transactions: the connection is kept in auto-commit mode and the transaction is bracketed by explicit
 * {@code BEGIN IMMEDIATE} / {@code COMMIT}, so the write lock is taken before the first read and concurrent writers
 * queue on {@code busy_timeout} instead of failing with {@code SQLITE_BUSY_SNAPSHOT}. With auto-commit off,
 * sqlite-jdbc would begin the next transaction right after every commit and hold the write lock until auto-commit is
 * restored, starving other processes. SQLite rolls a transaction back by itself on some errors (for example
 * {@code SQLITE_FULL}); the "no transaction is active" answer to the {@code ROLLBACK} is then ignored.
 *
 * <p>Failures: the schema's guard triggers check uniqueness themselves and raise {@code zeocore-conflict: <what>}
 * (a writer holds the file's lock, so a trigger sees every committed row); the driver's
 * {@code SQLITE_CONSTRAINT_UNIQUE} and {@code SQLITE_CONSTRAINT_PRIMARYKEY} are conflicts too but carry no words of
 * their own, so no constraint names are mapped.
 */
final class SqliteDialect implements SqlDialect {

  static final SqliteDialect INSTANCE = new SqliteDialect();

  private SqliteDialect() {}

  @Override
  public Dialect dialect() {
    return Dialect.SQLITE;
  }

  @Override
  public @Nullable String schemaName(@Nullable String requested) {
    if (requested != null) {
      throw new IllegalArgumentException("a schema name applies to PostgreSQL only; SQLite keeps ZeoCore's tables"
          + " in the database file's main schema");
    }
    return null;
  }

  @Override
  public String databaseNowMicros() {
    return "CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER)";
  }

  @Override
  public String dispatchStartedAt() {
    return "COALESCE(e.dispatch_started_db_at, d.started_db_at)";
  }

  @Override
  public String dispatchClockAssignment() {
    return ", dispatch_started_db_at = " + databaseNowMicros();
  }

  @Override
  public String historyInsertColumn() {
    return ", history";
  }

  @Override
  public String historyInsertValue(String state, String updatedAt, String completedAt) {
    return ", json_array(json_array(" + state + ", " + updatedAt + ", " + completedAt + "))";
  }

  @Override
  public String historyAppend(String state, String updatedAt, String completedAt) {
    return ", history = json_insert(history, '$[#]', json_array(" + state + ", " + updatedAt + ", " + completedAt
        + "))";
  }

  @Override
  public String selectHistory(Tables tables, String identityColumns) {
    return "SELECT " + identityColumns + ", s.value ->> 0 AS state, e.created_at AS created_at,"
        + " s.value ->> 1 AS updated_at, s.value ->> 2 AS completed_at"
        + " FROM " + tables.qualify("executions") + " e, json_each(e.history) s"
        + " WHERE e.organization_id = ? AND e.execution_id = ? ORDER BY s.key";
  }

  @Override
  public boolean embedded() {
    return true;
  }

  @Override
  public boolean begin(SqlSession session) throws SQLException {
    Connection connection = session.connection();
    boolean autoCommit = connection.getAutoCommit();
    if (!autoCommit) {
      connection.setAutoCommit(true);
    }
    session.execute("BEGIN IMMEDIATE");
    return !autoCommit;
  }

  @Override
  public void commit(SqlSession session) throws SQLException {
    session.execute("COMMIT");
  }

  @Override
  public void rollback(SqlSession session, Throwable failure) {
    try {
      session.execute("ROLLBACK");
    } catch (SQLException | RuntimeException e) {
      String message = e.getMessage();
      if (message == null || !message.contains("no transaction is active")) {
        failure.addSuppressed(e);
      }
    }
  }

  @Override
  public void end(SqlSession session, boolean restoreManualCommit) throws SQLException {
    if (restoreManualCommit) {
      session.connection().setAutoCommit(false);
    }
  }

  @Override
  public boolean commitsEffectsByFunction() {
    return false;
  }

  @Override
  public String nextSequenceInEffect(String table) {
    return "(SELECT coalesce(max(sequence), 0) + 1 FROM " + table
        + " WHERE organization_id = ?1 AND execution_id = ?2)";
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    String message = e.getMessage();
    return message != null
        && (message.contains("SQLITE_CONSTRAINT_UNIQUE") || message.contains("SQLITE_CONSTRAINT_PRIMARYKEY"));
  }

  @Override
  public @Nullable String constraintWords(SQLException e) {
    return null;
  }

  @Override
  public Map<String, String> constraintMessages() {
    return Map.of();
  }

  @Override
  public void requireFlywaySupport() {
    // Flyway's core jar supports SQLite
  }

  @Override
  public boolean hasTable(SqlSession session, Tables tables, String table) throws SQLException {
    return session.exists("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table);
  }

  @Override
  public String trueLiteral() {
    return "1";
  }
}
