package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlSessionTest {

  private static final String INSERT = "INSERT INTO t VALUES (?)";

  @TempDir
  Path temp;

  @Test
  void aCachedStatementThatFailedIsPreparedAfreshAndItsFailureIsNotHidden() throws Exception {
    Path file = temp.resolve("s.db");
    SqliteDatabase.open(file).close(); // creates the file with its modes
    try (Connection connection = SqliteDatabase.config().createConnection(SqliteDatabase.jdbcUrl(file))) {
      Map<String, PreparedStatement> cache = SqlSession.newCache();
      SqlSession session = SqlSession.caching(connection, cache);
      session.execute("CREATE TABLE t (k TEXT)");
      session.execute("PRAGMA query_only = 1");

      // SQLite's driver finalizes a statement that failed this way: reusing or even clearing it would throw
      // "statement is not executing" instead of the real error
      assertThatThrownBy(() -> session.update(INSERT, "refused"))
          .isInstanceOf(SQLException.class).hasMessageContaining("SQLITE_READONLY");
      assertThat(cache).doesNotContainKey(INSERT);

      session.execute("PRAGMA query_only = 0");
      assertThat(session.update(INSERT, "written")).isEqualTo(1);
      assertThat(cache).containsKey(INSERT);
      assertThat(session.list("SELECT k FROM t", row -> row.getString(1))).containsExactly("written");
    }
  }
}
