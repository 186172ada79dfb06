package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteDatabaseTest {

  @TempDir
  Path temp;

  @Test
  void createsMissingDirectoriesAs0700AndTheFileAs0600BeforeOpening() throws Exception {
    Path file = temp.resolve("a/b/zeocore.db");
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      assertThat(database.file()).isEqualTo(file.toAbsolutePath());
      assertThat(mode(temp.resolve("a"))).isEqualTo("rwx------");
      assertThat(mode(temp.resolve("a/b"))).isEqualTo("rwx------");
      assertThat(mode(file)).isEqualTo("rw-------");
      assertThat(database.fileMode()).contains("rw-------");
    }
  }

  @Test
  void leavesAnExistingDirectoryAloneButTightensAnExistingFileAndLeftoverSideFiles() throws Exception {
    Path directory = Files.createDirectory(temp.resolve("data"));
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path file = directory.resolve("zeocore.db");
    Files.createFile(file);
    Path wal = directory.resolve("zeocore.db-wal");
    Path shm = directory.resolve("zeocore.db-shm");
    Files.createFile(wal);
    Files.createFile(shm);
    for (Path path : new Path[] {file, wal, shm}) {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
    }

    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      assertThat(mode(directory)).isEqualTo("rwxr-xr-x");
      assertThat(database.fileModes()).containsEntry("zeocore.db", "rw-------")
          .containsEntry("zeocore.db-wal", "rw-------")
          .containsEntry("zeocore.db-shm", "rw-------");
    }
  }

  @Test
  void sideFilesCreatedBySqliteInheritTheFileMode() throws Exception {
    Path file = temp.resolve("zeocore.db");
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      database.database().write(session -> session.update("CREATE TABLE t (x INTEGER)"));
      database.database().write(session -> session.update("INSERT INTO t VALUES (1)"));
      Map<String, String> modes = database.fileModes();
      assertThat(modes).containsKeys("zeocore.db", "zeocore.db-wal", "zeocore.db-shm");
      assertThat(modes.values()).containsOnly("rw-------");
    }
  }

  @Test
  void appliesDurableSettingsAsDriverProperties() throws Exception {
    try (SqliteDatabase database = SqliteDatabase.open(temp.resolve("zeocore.db"))) {
      StoreDatabase db = database.database();
      assertThat(text(db, "PRAGMA journal_mode")).isEqualTo("wal");
      assertThat(number(db, "PRAGMA synchronous")).isEqualTo(2);
      assertThat(number(db, "PRAGMA busy_timeout")).isEqualTo(5000);
      assertThat(number(db, "PRAGMA foreign_keys")).isEqualTo(1);
      assertThat(number(db, "PRAGMA recursive_triggers")).isEqualTo(1);
    }
  }

  @Test
  void aFailedWriteRollsBackEverythingItDid() throws Exception {
    try (SqliteDatabase database = SqliteDatabase.open(temp.resolve("zeocore.db"))) {
      StoreDatabase db = database.database();
      db.write(s -> s.update("CREATE TABLE t (x INTEGER PRIMARY KEY)"));
      assertThatThrownBy(() -> db.write(s -> {
        s.update("INSERT INTO t VALUES (1)");
        return s.update("INSERT INTO t VALUES (1)");
      })).hasMessageContaining("UNIQUE");
      assertThat(number(db, "SELECT count(*) FROM t")).isZero();
      db.write(s -> s.update("INSERT INTO t VALUES (2)"));
      assertThat(number(db, "SELECT count(*) FROM t")).isEqualTo(1);
    }
  }

  @Test
  void writesFromOneInstanceAreVisibleToASecondInstanceOnTheSameFile() throws Exception {
    Path file = temp.resolve("zeocore.db");
    try (SqliteDatabase first = SqliteDatabase.open(file); SqliteDatabase second = SqliteDatabase.open(file)) {
      first.database().write(s -> s.update("CREATE TABLE t (x INTEGER PRIMARY KEY)"));
      first.database().write(s -> s.update("INSERT INTO t VALUES (7)"));
      assertThat(number(second.database(), "SELECT x FROM t")).isEqualTo(7);
      // the first instance holds no lock between transactions
      second.database().write(s -> s.update("INSERT INTO t VALUES (8)"));
      assertThat(number(first.database(), "SELECT count(*) FROM t")).isEqualTo(2);
    }
  }

  @Test
  void warmingUpCreatesNoFileAndLeavesNoThread() throws Exception {
    Path workingDirectory = Path.of("").toAbsolutePath();
    java.util.List<Path> before;
    try (java.util.stream.Stream<Path> files = Files.list(workingDirectory)) {
      before = files.sorted().toList();
    }
    int threads = Thread.activeCount();

    SqliteDatabase.warmUp();
    SqliteDatabase.warmUp();

    try (java.util.stream.Stream<Path> files = Files.list(workingDirectory)) {
      assertThat(files.sorted().toList()).isEqualTo(before);
    }
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threads);
    try (SqliteDatabase database = SqliteDatabase.open(temp.resolve("zeocore.db"))) {
      assertThat(text(database.database(), "PRAGMA journal_mode")).isEqualTo("wal");
    }
  }

  @Test
  void refusesADirectoryAsTheDatabasePath() {
    assertThatThrownBy(() -> SqliteDatabase.open(temp))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is a directory");
  }

  @Test
  void aClosedDatabaseRefusesWork() throws Exception {
    SqliteDatabase database = SqliteDatabase.open(temp.resolve("zeocore.db"));
    database.close();
    database.close();
    assertThatThrownBy(() -> database.database().read(s -> s.first("SELECT 1", r -> r.getInt(1)).orElseThrow()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  private static String text(StoreDatabase db, String sql) throws Exception {
    String value = db.read(s -> s.first(sql, r -> r.getString(1)).orElseThrow());
    return value;
  }

  private static int number(StoreDatabase db, String sql) throws Exception {
    Integer value = db.read(s -> s.first(sql, r -> r.getInt(1)).orElseThrow());
    return value;
  }

  @Test
  void underConcurrentWritersAndReadersEveryReadSeesEveryWriteThatReturnedBeforeItStarted() throws Exception {
    int writers = 8;
    int writesEach = 60;
    int readers = 6; // more than the read connections: some reads wait for the writer
    try (SqliteDatabase sqlite = SqliteDatabase.open(temp.resolve("concurrent.db"))) {
      StoreDatabase database = sqlite.database();
      database.write(s -> s.update("CREATE TABLE t (k INTEGER PRIMARY KEY)"));
      AtomicIntegerArray returned = new AtomicIntegerArray(writers); // per writer: its writes that returned
      AtomicBoolean writing = new AtomicBoolean(true);
      ExecutorService threads = Executors.newFixedThreadPool(writers + readers);
      try {
        List<Future<?>> work = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          int writer = w;
          work.add(threads.submit(() -> {
            for (int i = 0; i < writesEach; i++) {
              long key = writer * 1_000L + i;
              database.write(s -> s.update("INSERT INTO t VALUES (?)", key));
              returned.set(writer, i + 1);
              // its own write, read at once (on the writer or on a read connection, whichever is free)
              int own = database.read(s -> s.first("SELECT count(*) FROM t WHERE k = ?", row -> row.getInt(1), key).orElseThrow());
              assertThat(own).isEqualTo(1);
            }
            return null;
          }));
        }
        for (int r = 0; r < readers; r++) {
          work.add(threads.submit(() -> {
            while (writing.get()) {
              int[] before = new int[writers];
              for (int w = 0; w < writers; w++) {
                before[w] = returned.get(w);
              }
              List<Integer> seen = database.read(s -> {
                List<Integer> counts = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                  counts.add(s.first("SELECT count(*) FROM t WHERE k BETWEEN ? AND ?", row -> row.getInt(1),
                      w * 1_000L, w * 1_000L + 999).orElseThrow());
                }
                counts.add(s.first("SELECT count(*) FROM t", row -> row.getInt(1)).orElseThrow());
                return counts;
              });
              int total = 0;
              for (int w = 0; w < writers; w++) {
                assertThat(seen.get(w)).as("writer %d", w).isGreaterThanOrEqualTo(before[w]);
                total += seen.get(w);
              }
              assertThat(seen.get(writers)).as("one snapshot for the whole read").isEqualTo(total);
            }
            return null;
          }));
        }
        for (int w = 0; w < writers; w++) {
          work.get(w).get(60, TimeUnit.SECONDS);
        }
        writing.set(false);
        for (Future<?> done : work) {
          done.get(60, TimeUnit.SECONDS);
        }
      } finally {
        threads.shutdownNow();
      }
      int stored = database.read(s -> s.first("SELECT count(*) FROM t", row -> row.getInt(1)).orElseThrow());
      assertThat(stored).isEqualTo(writers * writesEach);
    }
  }

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
