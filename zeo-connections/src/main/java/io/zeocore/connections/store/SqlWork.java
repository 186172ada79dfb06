package io.zeocore.connections.store;

import java.sql.SQLException;

/** Work done with one {@link SqlSession}: inside one transaction for writes, on one connection for reads. */
@FunctionalInterface
interface SqlWork<T> {

  T run(SqlSession session) throws SQLException;
}
