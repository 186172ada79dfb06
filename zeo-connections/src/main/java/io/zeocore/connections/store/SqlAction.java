package io.zeocore.connections.store;

import java.sql.SQLException;

/** Work done with one {@link SqlSession} for its writes alone: {@link SqlWork} without a result. */
@FunctionalInterface
interface SqlAction {
  void run(SqlSession session) throws SQLException;
}
