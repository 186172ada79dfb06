package io.zeocore.connections.store;

import java.sql.SQLException;

/**
 * The bracket of one write transaction. How it begins, commits, rolls back and ends is the dialect's
 * ({@link SqliteDialect}: {@code BEGIN IMMEDIATE} in auto-commit mode; {@link PostgresDialect}: {@code READ COMMITTED}
 * set per transaction with auto-commit off).
 */
final class Transactions {

  private Transactions() {}

  /**
   * Runs {@code work} as one write transaction on {@code session}: {@link SqlDialect#begin}, then
   * {@link SqlDialect#commit} when the work returns or {@link SqlDialect#rollback} when it throws (the failure is
   * rethrown as is), and {@link SqlDialect#end} in every case.
   */
  static <T> T inTransaction(SqlDialect dialect, SqlSession session, SqlWork<T> work) throws SQLException {
    boolean restore = dialect.begin(session);
    try {
      T result;
      try {
        result = work.run(session);
        dialect.commit(session);
      } catch (Throwable failure) {
        dialect.rollback(session, failure);
        throw failure;
      }
      return result;
    } finally {
      dialect.end(session, restore);
    }
  }
}
