package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupCommitDatabaseTest {

  @TempDir
  Path directory;

  private final AtomicInteger commits = new AtomicInteger();
  private final AtomicInteger attempts = new AtomicInteger();
  /** The number (counted from 1 after set-up) of the commit attempt that fails; 0 for none. */
  private final AtomicInteger failingAttempt = new AtomicInteger();
  private final ExecutorService callers = Executors.newCachedThreadPool();
  private volatile boolean failWithError;
  /** The write {@link #holdTheWriter} holds. */
  private Future<?> held;
  private GroupCommitDatabase database;

  @BeforeEach
  void open() throws SQLException {
    SqliteDatabase.open(directory.resolve("g.db")).close(); // creates the file with its modes
    String url = SqliteDatabase.jdbcUrl(directory.resolve("g.db"));
    database = new GroupCommitDatabase(SqliteDialect.INSTANCE, SqliteDatabase.config().createConnection(url),
        (dialect, session) -> {
          if (attempts.incrementAndGet() == failingAttempt.get()) {
            if (failWithError) {
              throw new AssertionError("injected commit error");
            }
            throw new SQLException("injected commit failure");
          }
          commits.incrementAndGet();
          dialect.commit(session);
        },
        new ReadSessions(() -> SqliteDatabase.readerConfig().createConnection(url), 1));
    database.write(s -> s.update("CREATE TABLE t (k TEXT PRIMARY KEY)"));
    commits.set(0);
    attempts.set(0);
  }

  @AfterEach
  void close() {
    callers.shutdownNow();
    database.close();
  }

  @Test
  void writersQueuedBehindACommitShareTheNextCommitAndEachReturnsAfterIt() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<?> blocker = callers.submit(() -> database.write(s -> {
      holding.countDown();
      await(release);
      return s.update("INSERT INTO t VALUES ('first')");
    }));
    holding.await();
    List<Future<Integer>> writes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String key = "k" + i;
      writes.add(callers.submit(() -> database.write(s -> s.update("INSERT INTO t VALUES (?)", key))));
    }
    awaitQueued(8);
    release.countDown();
    blocker.get(10, TimeUnit.SECONDS);

    for (Future<Integer> write : writes) {
      assertThat(write.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    }
    assertThat(commits).hasValue(2);
    assertThat(count()).isEqualTo(9);
  }

  @Test
  void aFailingWorkIsRolledBackAloneAndItsCallerGetsItsOwnError() throws Exception {
    database.write(s -> s.update("INSERT INTO t VALUES ('taken')"));
    CountDownLatch release = holdTheWriter();
    Future<Integer> good = callers.submit(() -> database.write(s -> s.update("INSERT INTO t VALUES ('good')")));
    Future<Integer> duplicate = callers.submit(() -> database.write(s -> {
      s.update("INSERT INTO t VALUES ('partial')");
      return s.update("INSERT INTO t VALUES ('taken')");
    }));
    awaitQueued(2);
    release.countDown();

    assertThat(good.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThatThrownBy(() -> duplicate.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(SQLException.class);
    assertThat(keys()).containsExactlyInAnyOrder("taken", "held", "good");
  }

  @Test
  void whenTheBatchFailsToCommitEveryCallerInItGetsTheErrorAndNothingOfItIsStored() throws Exception {
    for (Future<Integer> write : fourWritesInABatchWhoseCommitFails(false)) {
      assertThatThrownBy(() -> write.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("injected commit failure");
    }
    assertThat(keys()).containsExactly("held");
    // the connection is usable again
    assertThat(database.<Integer>write(s -> s.update("INSERT INTO t VALUES ('after')"))).isEqualTo(1);
  }

  @Test
  void whenTheBatchsCommitThrowsAnErrorEveryCallerInItGetsItAndNoneIsLeftWaiting() throws Exception {
    for (Future<Integer> write : fourWritesInABatchWhoseCommitFails(true)) {
      assertThatThrownBy(() -> write.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(AssertionError.class)
          .hasRootCauseMessage("injected commit error");
    }
    assertThat(keys()).containsExactly("held");
    assertThat(database.<Integer>write(s -> s.update("INSERT INTO t VALUES ('after')"))).isEqualTo(1);
  }

  @Test
  void aReadWhileABatchCommitsDoesNotWaitForItAndSeesTheLastCommit() throws Exception {
    database.write(s -> s.update("INSERT INTO t VALUES ('before')"));
    CountDownLatch inserted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<?> holder = callers.submit(() -> database.write(s -> {
      s.update("INSERT INTO t VALUES ('uncommitted')");
      inserted.countDown();
      await(release);
      return 1;
    }));
    inserted.await();

    Future<List<String>> read = callers.submit(this::keys);

    assertThat(read.get(10, TimeUnit.SECONDS)).containsExactly("before");
    assertThat(holder).isNotDone();
    release.countDown();
    holder.get(10, TimeUnit.SECONDS);
    assertThat(keys()).containsExactlyInAnyOrder("before", "uncommitted");
  }

  @Test
  void aReadConnectionRefusesToWrite() throws Exception {
    CountDownLatch release = holdTheWriter();
    Future<Integer> sneaky = callers.submit(() -> database.read(s -> s.update("INSERT INTO t VALUES ('sneaky')")));

    assertThatThrownBy(() -> sneaky.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(SQLException.class)
        .hasMessageContaining("readonly");
    release.countDown();
    held.get(10, TimeUnit.SECONDS);
    assertThat(keys()).containsExactly("held");
  }

  @Test
  void whenEveryReadConnectionIsBusyAReadWaitsForTheWriter() throws Exception {
    CountDownLatch releaseWriter = holdTheWriter();
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch releaseReader = new CountDownLatch(1);
    Future<List<Integer>> first = callers.submit(() -> database.read(s -> {
      int before = s.first("SELECT count(*) FROM t", row -> row.getInt(1)).orElseThrow(); // the read's snapshot starts here
      reading.countDown();
      await(releaseReader);
      return List.of(before, s.first("SELECT count(*) FROM t", row -> row.getInt(1)).orElseThrow());
    }));
    reading.await();

    Future<Integer> second = callers.submit(this::count); // the only read connection is taken

    Thread.sleep(200);
    assertThat(second).isNotDone();
    releaseWriter.countDown();
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(1); // on the writer, after the held write committed
    releaseReader.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).containsExactly(0, 0); // one snapshot, older than that commit
  }

  @Test
  void transactionsDoNotNestOnAReadConnectionEither() throws Exception {
    CountDownLatch release = holdTheWriter(); // so that the outer reads run on the (only) read connection
    for (SqlWork<Integer> nested : List.<SqlWork<Integer>>of(s -> database.read(inner -> 1),
        s -> database.write(inner -> 1))) {
      Future<Integer> outer = callers.submit(() -> database.read(nested));
      assertThatThrownBy(() -> outer.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class)
          .hasMessageContaining("do not nest");
    }
    release.countDown();
  }

  @Test
  void whenNoReadConnectionCanBeOpenedReadsWaitForTheWriterAndNoneIsTriedAgain() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    String url = SqliteDatabase.jdbcUrl(directory.resolve("g.db"));
    GroupCommitDatabase withoutReaders = new GroupCommitDatabase(SqliteDialect.INSTANCE,
        SqliteDatabase.config().createConnection(url), SqlDialect::commit, new ReadSessions(() -> {
          attempts.incrementAndGet();
          throw new SQLException("no second connection here");
        }, 4));
    try {
      assertThat(readsBehindAHeldWrite(withoutReaders, "w1")).containsExactly(1, 1, 1);
      int triedWhileConcurrent = attempts.get(); // the reads that raced to open one before the first failure
      assertThat(triedWhileConcurrent).isBetween(1, 3);

      assertThat(readsBehindAHeldWrite(withoutReaders, "w2")).containsExactly(2, 2, 2);
      assertThat(attempts).hasValue(triedWhileConcurrent);
    } finally {
      withoutReaders.close();
    }
  }

  @Test
  void anInterruptedCallerStillWaitsForItsCommitAndKeepsItsInterrupt() throws Exception {
    CountDownLatch release = holdTheWriter();
    AtomicReference<Thread> caller = new AtomicReference<>();
    Future<List<Object>> write = callers.submit(() -> {
      caller.set(Thread.currentThread());
      int inserted = database.write(s -> s.update("INSERT INTO t VALUES ('patient')"));
      return List.of(inserted, Thread.currentThread().isInterrupted());
    });
    awaitQueued(1);
    caller.get().interrupt();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuBefore = threads.getThreadCpuTime(caller.get().getId());

    Thread.sleep(200);
    assertThat(write).as("an interrupt cannot withdraw a queued work").isNotDone();
    long cpuWhileWaiting = threads.getThreadCpuTime(caller.get().getId()) - cpuBefore;
    assertThat(cpuWhileWaiting).as("it sleeps while it waits, it does not spin (ns of CPU in 200 ms)")
        .isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
    release.countDown();
    assertThat(write.get(10, TimeUnit.SECONDS)).containsExactly(1, true);
    assertThat(keys()).containsExactlyInAnyOrder("held", "patient");
  }

  @Test
  void aLoneWriterRunsAPlainTransaction() throws Exception {
    assertThat(database.<Integer>write(s -> s.update("INSERT INTO t VALUES ('alone')"))).isEqualTo(1);
    failingAttempt.set(2);
    assertThatThrownBy(() -> database.write(s -> s.update("INSERT INTO t VALUES ('lost')")))
        .hasMessage("injected commit failure");
    assertThat(keys()).containsExactly("alone");
    assertThat(commits).hasValue(1);
  }

  @Test
  void transactionsDoNotNest() {
    assertThatThrownBy(() -> database.write(s -> database.write(inner -> 1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("do not nest");
    assertThatThrownBy(() -> database.write(s -> database.read(inner -> 1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("do not nest");
  }

  /**
   * Three reads of the row count started while a write of {@code key} is held; checks that none returns before the
   * write is released, then returns what each read.
   */
  private List<Integer> readsBehindAHeldWrite(GroupCommitDatabase database, String key) throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<?> writer = callers.submit(() -> database.write(s -> {
      holding.countDown();
      await(release);
      return s.update("INSERT INTO t VALUES (?)", key);
    }));
    holding.await();
    List<Future<Integer>> reads = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      reads.add(callers.submit(() -> database.read(s -> s.first("SELECT count(*) FROM t", row -> row.getInt(1)).orElseThrow())));
    }
    Thread.sleep(100);
    assertThat(reads).noneMatch(Future::isDone);
    release.countDown();
    writer.get(10, TimeUnit.SECONDS);
    List<Integer> counts = new ArrayList<>();
    for (Future<Integer> read : reads) {
      counts.add(read.get(10, TimeUnit.SECONDS));
    }
    return counts;
  }

  /**
   * Four writes queued behind a held one, which commits (attempt 1); the batch of the four then fails to commit, with
   * an {@link SQLException} or, when {@code error}, an {@link AssertionError}.
   */
  private List<Future<Integer>> fourWritesInABatchWhoseCommitFails(boolean error) throws InterruptedException {
    CountDownLatch release = holdTheWriter();
    List<Future<Integer>> writes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String key = "lost" + i;
      writes.add(callers.submit(() -> database.write(s -> s.update("INSERT INTO t VALUES (?)", key))));
    }
    awaitQueued(4);
    failWithError = error;
    failingAttempt.set(2);
    release.countDown();
    return writes;
  }

  /** Starts a write of {@code held} that waits inside its transaction; returns the latch that releases it. */
  private CountDownLatch holdTheWriter() throws InterruptedException {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    held = callers.submit(() -> database.write(s -> {
      holding.countDown();
      await(release);
      return s.update("INSERT INTO t VALUES ('held')");
    }));
    holding.await();
    return release;
  }

  private void awaitQueued(int writes) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (database.queuedWrites() != writes) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + writes + " queued writes, saw " + database.queuedWrites());
      }
      Thread.sleep(1);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private int count() throws SQLException {
    return database.read(s -> s.first("SELECT count(*) FROM t", row -> row.getInt(1)).orElseThrow());
  }

  private List<String> keys() throws SQLException {
    return database.read(s -> s.list("SELECT k FROM t", row -> row.getString(1)));
  }
}
