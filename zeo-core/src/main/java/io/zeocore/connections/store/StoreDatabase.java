package io.zeocore.connections.store;

import java.sql.SQLException;

/**
 * Where the store's SQL runs: the embedded SQLite file's single writer connection, or connections borrowed from a
 * {@link javax.sql.DataSource}. Implementations are thread-safe.
 */
interface StoreDatabase extends AutoCloseable {

  Dialect dialect();

  /**
   * Runs {@code work} in one write transaction and commits it; any exception rolls it back. On SQLite the transaction
   * is {@code BEGIN IMMEDIATE}. When this method returns normally the transaction is durable (as durable as the
   * database's {@code synchronous} setting makes a commit).
   */
  <T> T write(SqlWork<T> work) throws SQLException;

  /** Runs read-only {@code work} outside any write transaction. */
  <T> T read(SqlWork<T> work) throws SQLException;

  @Override
  void close();
}
