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
 * <p>PostgreSQL: auto-commit off for the transaction, {@code SET TRANSACTION ISOLATION LEVEL READ COMMITTED} as its
 * first statement, {@code commit()}, then auto-commit restored. The isolation level is set per transaction, whatever
 * the pool's default: the store's races are decided by unique constraints (a concurrent insert of the same key waits
 * for the first transaction, then fails with SQLSTATE 23505, which the store reads as "lost the claim") and by
 * compare-and-set updates ({@code UPDATE ... WHERE state = ?}: a concurrent update waits for the row lock, re-reads
 * the committed row and matches zero rows, which the store reads as "changed concurrently"). Under
 * {@code REPEATABLE READ} or {@code SERIALIZABLE} both races would instead end in serialization failures (SQLSTATE
 * 40001) that need a retry loop and turn a lost claim into an error; {@code READ COMMITTED} keeps them single-shot
 * and exact. Nothing in a write transaction relies on a snapshot older than its own statements.
 */
final class Transactions {

  private Transactions() {}

  /**
   * Runs {@code work} as one write transaction on {@code session}: {@link #begin}, then {@link #commit} when the work
   * returns or {@link #rollback} when it throws (the failure is rethrown as is), and {@link #end} in every case.
   */
  static <T> T inTransaction(Dialect dialect, SqlSession session, SqlWork<T> work) throws SQLException {
    boolean restore = begin(dialect, session);
    try {
      T result;
      try {
        result = work.run(session);
        commit(dialect, session);
      } catch (Throwable failure) {
        rollback(dialect, session, failure);
        throw failure;
      }
      return result;
    } finally {
      end(dialect, session, restore);
    }
  }

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
    try {
      session.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
    } catch (SQLException | RuntimeException e) {
      rollback(dialect, session, e);
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
