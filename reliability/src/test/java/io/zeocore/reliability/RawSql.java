package io.zeocore.reliability;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

final class RawSql {

  private RawSql() {}

  static void exec(Connection raw, String sql) throws SQLException {
    try (Statement statement = raw.createStatement()) {
      statement.execute(sql);
    }
  }
}
