package io.zeocore.connections.store;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads the current row of a result set into a value. */
@FunctionalInterface
interface RowReader<T> {

  T read(ResultSet row) throws SQLException;
}
