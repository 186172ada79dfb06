package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How one write transaction begins and ends on a connection of a dialect.
 *
 * <p>SQLite: the connection is kept in auto-commit mode and the transaction is bracketed by explicit
 * {@code BEGIN IMMEDIATE} / {@code COMMIT}. With auto-commit off, sqlite-jdbc would begin the next transaction right
 * after every commit and hold the write lock until auto-commit is restored, starving other processes.
 *
 * <p>PostgreSQL: auto-commit off for the transaction, {@code commit()}, then auto-commit restored.
 */
final class Transactions {

  private Transactions() {}

  /** Begins a write transaction; returns whether auto-commit must be switched back off afterwards. */
  static boolean begin(Dialect dialect, SqlSession session) throws SQLException {
    Connection connection = session.connection();
    boolean autoCommit = connection.getAutoCommit();
    if (dialect == Dialect.SQLITE) {
      if (!autoCommit) {
        connection.setAutoCommit(true);
      }
      session.execute("BEGIN IMMEDIATE");
      return !autoCommit;
    }
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    return !autoCommit;
  }

  static void commit(Dialect dialect, SqlSession session) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      session.execute("COMMIT");
    } else {
      session.connection().commit();
    }
  }

  /**
   * Rolls back, adding any rollback failure to {@code failure} as suppressed. SQLite rolls a transaction back by
   * itself on some errors (for example {@code SQLITE_FULL}); the "no transaction is active" answer is then ignored.
   */
  static void rollback(Dialect dialect, SqlSession session, Throwable failure) {
    try {
      if (dialect == Dialect.SQLITE) {
        session.execute("ROLLBACK");
      } else {
        session.connection().rollback();
      }
    } catch (SQLException | RuntimeException e) {
      String message = e.getMessage();
      if (dialect != Dialect.SQLITE || message == null || !message.contains("no transaction is active")) {
        failure.addSuppressed(e);
      }
    }
  }

  /** Restores the connection's auto-commit mode after a transaction. */
  static void end(Dialect dialect, SqlSession session, boolean restoreManualCommit) throws SQLException {
    Connection connection = session.connection();
    if (dialect == Dialect.SQLITE) {
      if (restoreManualCommit) {
        connection.setAutoCommit(false);
      }
    } else if (!restoreManualCommit) {
      connection.setAutoCommit(true);
    }
  }

}
