package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Connections borrowed from a {@link DataSource} (an application's, usually a pool, or the store's own
 * {@link UrlSessionPool}), one per call. Connections are taken with {@link DataSource#getConnection()} directly,
 * never through Spring's transaction synchronization: a store write must commit on its own, also when the caller is
 * inside an application transaction, or "durable before dispatch" would silently become "durable when the caller
 * commits".
 */
final class DataSourceDatabase implements StoreDatabase {

  private final DataSource dataSource;
  private final SqlDialect sql;
  private final @Nullable UrlSessionPool owned;

  /** On an application's data source, which {@link #close()} leaves open. */
  DataSourceDatabase(DataSource dataSource, SqlDialect sql) {
    this(dataSource, sql, null);
  }

  private DataSourceDatabase(DataSource dataSource, SqlDialect sql, @Nullable UrlSessionPool owned) {
    this.dataSource = dataSource;
    this.sql = sql;
    this.owned = owned;
  }

  /** On the store's own pool, which {@link #close()} closes. */
  static DataSourceDatabase owning(UrlSessionPool pool, SqlDialect sql) {
    return new DataSourceDatabase(pool, sql, pool);
  }

  @Override
  public SqlDialect sql() {
    return sql;
  }

  @Override
  public <T> T write(SqlWork<T> work) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      return Transactions.inTransaction(sql, SqlSession.plain(connection), work);
    }
  }

  /** Auto-commit connections run the statement alone; a pool that hands out manual-commit ones gets a transaction. */
  @Override
  public <T> T writeStatement(SqlWork<T> work) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      if (!connection.getAutoCommit()) {
        return Transactions.inTransaction(sql, SqlSession.plain(connection), work);
      }
      return work.run(SqlSession.plain(connection));
    }
  }

  @Override
  public <T> T read(SqlWork<T> work) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      return work.run(SqlSession.plain(connection));
    }
  }

  /** The store's own pool's counts, or empty on an application's data source. */
  @Override
  public Optional<SessionPoolStats> ownPool() {
    return owned == null ? Optional.empty() : Optional.of(owned.stats());
  }

  /** Closes the store's own pool; an application's data source is left open. */
  @Override
  public void close() {
    if (owned != null) {
      owned.close();
    }
  }
}
