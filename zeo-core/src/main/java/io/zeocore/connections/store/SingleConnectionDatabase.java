package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One owned connection used for every read and write, serialized by a lock, with its prepared statements cached for
 * the connection's life. This is the embedded SQLite file's single writer: there is never a second writer in this
 * process to contend with, and other processes on the same file queue on {@code BEGIN IMMEDIATE} and
 * {@code busy_timeout}.
 */
final class SingleConnectionDatabase implements StoreDatabase {

  private final SqlDialect sql;
  private final Connection connection;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, PreparedStatement> statements = SqlSession.newCache();
  private final SqlSession session;
  private boolean closed;

  SingleConnectionDatabase(SqlDialect sql, Connection connection) {
    this.sql = sql;
    this.connection = connection;
    this.session = SqlSession.caching(connection, statements);
  }

  @Override
  public SqlDialect sql() {
    return sql;
  }

  @Override
  public <T> T write(SqlWork<T> work) throws SQLException {
    lock.lock();
    try {
      checkUsable();
      return Transactions.inTransaction(sql, session, work);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public <T> T read(SqlWork<T> work) throws SQLException {
    lock.lock();
    try {
      checkUsable();
      return work.run(session);
    } finally {
      lock.unlock();
    }
  }

  private void checkUsable() {
    if (closed) {
      throw new IllegalStateException("the store's database is closed");
    }
    if (lock.getHoldCount() > 1) {
      throw new IllegalStateException("store transactions do not nest");
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      for (PreparedStatement statement : statements.values()) {
        try {
          statement.close();
        } catch (SQLException ignored) {
          // closing the connection releases it anyway
        }
      }
      statements.clear();
      try {
        connection.close();
      } catch (SQLException e) {
        throw new IllegalStateException("closing the store's database connection failed", e);
      }
    } finally {
      lock.unlock();
    }
  }
}
