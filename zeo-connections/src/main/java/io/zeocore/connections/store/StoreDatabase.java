package io.zeocore.connections.store;

import java.sql.SQLException;
import java.util.Optional;

/**
 * Where the store's SQL runs: the embedded SQLite file's single writer connection, or connections borrowed from a
 * {@link javax.sql.DataSource}. Implementations are thread-safe.
 */
interface StoreDatabase extends AutoCloseable {

  /** The dialect's strategy. */
  SqlDialect sql();

  /**
   * Runs {@code work} in one write transaction and commits it; any exception rolls it back. On SQLite the transaction
   * is {@code BEGIN IMMEDIATE}. When this method returns normally the transaction is durable (as durable as the
   * database's {@code synchronous} setting makes a commit).
   */
  <T> T write(SqlWork<T> work) throws SQLException;

  /** Runs read-only {@code work} outside any write transaction. */
  <T> T read(SqlWork<T> work) throws SQLException;

  /**
   * Runs {@code work}, which makes exactly one statement, as a write that is that statement alone: where the
   * connection commits each statement by itself (auto-commit), the statement's own transaction is the commit — one
   * round trip, atomic and durable when it returns, at the connection's default isolation level. Elsewhere the same
   * as {@link #write(SqlWork)}.
   */
  default <T> T writeStatement(SqlWork<T> work) throws SQLException {
    return write(work);
  }

  /**
   * {@link #write(SqlWork)}, with an SQL failure turned into a {@link ConnectionStoreException} carrying the schema's
   * words or else {@code failure} ({@link StoreFailures#translate}).
   */
  default <T> T write(String failure, SqlWork<T> work) {
    try {
      return write(work);
    } catch (SQLException e) {
      throw StoreFailures.translate(sql(), e, failure);
    }
  }

  /** {@link #write(SqlWork)} for work that has no result. */
  default void writeWithoutResult(SqlAction action) throws SQLException {
    write(session -> {
      action.run(session);
      return Boolean.TRUE;
    });
  }

  /** {@link #write(String, SqlWork)} for work that has no result. */
  default void writeWithoutResult(String failure, SqlAction action) {
    try {
      writeWithoutResult(action);
    } catch (SQLException e) {
      throw StoreFailures.translate(sql(), e, failure);
    }
  }

  /** {@link #read(SqlWork)}, with an SQL failure translated like {@link #write(String, SqlWork)}. */
  default <T> T read(String failure, SqlWork<T> work) {
    try {
      return read(work);
    } catch (SQLException e) {
      throw StoreFailures.translate(sql(), e, failure);
    }
  }

  /** Whether {@code e} says that a key, identity or nonce is already taken ({@link StoreFailures#isConflict}). */
  default boolean isConflict(SQLException e) {
    return StoreFailures.isConflict(sql(), e);
  }

  /** {@code e} as a {@link ConnectionStoreException} ({@link StoreFailures#translate}). */
  default ConnectionStoreException translate(SQLException e, String failure) {
    return StoreFailures.translate(sql(), e, failure);
  }

  /** The counts of the connection pool this database owns and closes, or empty when it owns none. */
  default Optional<SessionPoolStats> ownPool() {
    return Optional.empty();
  }

  @Override
  void close();
}
