package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Connections borrowed from an application's {@link DataSource} (usually a pool), one per call. Connections are taken
 * with {@link DataSource#getConnection()} directly, never through Spring's transaction synchronization: a store write
 * must commit on its own, also when the caller is inside an application transaction, or "durable before dispatch"
 * would silently become "durable when the caller commits".
 */
final class DataSourceDatabase implements StoreDatabase {

  private final DataSource dataSource;
  private final SqlDialect sql;

  DataSourceDatabase(DataSource dataSource, SqlDialect sql) {
    this.dataSource = dataSource;
    this.sql = sql;
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

  /** The data source belongs to the application; closing the store leaves it open. */
  @Override
  public void close() {}
}
