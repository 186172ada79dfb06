package io.zeocore.connections.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Target health rows in one SQLite file shared by two store instances. */
class SqliteTargetHealthRowsTest extends AbstractTargetHealthRowsTest {

  @TempDir
  Path temp;

  @Override
  JdbcConnectionStore openStore() {
    return JdbcConnectionStore.openSqlite(temp.resolve("zeocore.db"));
  }
}
