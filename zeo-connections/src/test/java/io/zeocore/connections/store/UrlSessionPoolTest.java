package io.zeocore.connections.store;

import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.IdempotencyKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's own pool for a {@code jdbc:postgresql:} URL, against the real server: every session is told apart by
 * its backend process id ({@code pg_backend_pid()}) and counted in {@code pg_stat_activity} by an application name
 * unique to the test.
 */
class UrlSessionPoolTest {

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  private static final String CANARY_PASSWORD = "canary-pool-password-7f3a";

  private final String applicationName = "zeocore-pool-" + UUID.randomUUID().toString().substring(0, 8);
  private final String url = PostgresTestSchema.jdbcUrl() + "?ApplicationName=" + applicationName;
  private final List<UrlSessionPool> pools = new ArrayList<>();

  @AfterEach
  void closePools() {
    pools.forEach(UrlSessionPool::close);
  }

  private UrlSessionPool pool(int size, Duration maxWait, Duration validateAfterIdle) {
    UrlSessionPool pool = new UrlSessionPool(
        new UrlSessions(url, PostgresTestSchema.user(), CANARY_PASSWORD), size, maxWait, validateAfterIdle);
    pools.add(pool);
    return pool;
  }

  private UrlSessionPool pool(int size) {
    return pool(size, Duration.ofSeconds(10), UrlSessionPool.DEFAULT_VALIDATE_AFTER_IDLE);
  }

  private static int backend(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
      row.next();
      return row.getInt(1);
    }
  }

  /** Sessions the server has for this test's application name, polled until {@code expected} or 10 seconds. */
  private int sessionsSettlingAt(int expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int sessions;
    do {
      try (Connection admin = schema.connect();
          PreparedStatement count = admin.prepareStatement(
              "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
        count.setString(1, applicationName);
        try (ResultSet row = count.executeQuery()) {
          row.next();
          sessions = row.getInt(1);
        }
      }
      if (sessions == expected) {
        return sessions;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    return sessions;
  }

  @Test
  void successiveOperationsShareOneServerSession() throws Exception {
    UrlSessionPool pool = pool(3);
    Set<Integer> backends = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      try (Connection connection = pool.getConnection()) {
        backends.add(backend(connection));
      }
    }
    assertThat(backends).hasSize(1);
    assertThat(pool.stats()).isEqualTo(new SessionPoolStats(3, 0, 1, 0));
    assertThat(sessionsSettlingAt(1)).isEqualTo(1);
  }

  @Test
  void opensNoMoreThanItsSizeAndAWaitingCallerGetsTheNextConnectionReturned() throws Exception {
    UrlSessionPool pool = pool(2);
    Connection first = pool.getConnection();
    Connection second = pool.getConnection();
    int firstBackend = backend(first);
    backend(second);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> third = thread.submit(() -> {
        try (Connection connection = pool.getConnection()) {
          return backend(connection);
        }
      });
      Thread.sleep(300);
      assertThat(third).isNotDone();
      assertThat(pool.stats()).isEqualTo(new SessionPoolStats(2, 2, 0, 1));

      first.close();
      assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo(firstBackend);
    } finally {
      thread.shutdownNow();
      second.close();
    }
    assertThat(pool.stats()).isEqualTo(new SessionPoolStats(2, 0, 2, 0));
    assertThat(sessionsSettlingAt(2)).isEqualTo(2);
  }

  @Test
  void aCallerThatFindsEveryConnectionLentFailsAfterTheWaitWithTheSizeAndNoCredentials() throws Exception {
    UrlSessionPool pool = pool(1, Duration.ofMillis(200), UrlSessionPool.DEFAULT_VALIDATE_AFTER_IDLE);
    try (Connection held = pool.getConnection()) {
      long started = System.nanoTime();
      assertThatThrownBy(pool::getConnection)
          .isInstanceOfSatisfying(SQLTransientConnectionException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("08001"))
          .hasMessageContaining("within 200 ms").hasMessageContaining("all 1 of its pool are in use")
          .hasMessageContaining("zeocore.connections.store.pool-size")
          .hasMessageNotContaining(CANARY_PASSWORD).hasMessageNotContaining(applicationName);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(190));
      assertThat(backend(held)).isPositive();
    }
  }

  @Test
  void whatAnOperationLeftUncommittedIsRolledBackAndTheConnectionComesBackInAutoCommit() throws Exception {
    String table = schema.name() + ".pool_probe";
    try (Connection admin = schema.connect(); Statement ddl = admin.createStatement()) {
      ddl.execute("CREATE TABLE " + table + " (id int)");
    }
    UrlSessionPool pool = pool(1);
    int backend;
    try (Connection connection = pool.getConnection(); Statement insert = connection.createStatement()) {
      backend = backend(connection);
      connection.setAutoCommit(false);
      insert.execute("INSERT INTO " + table + " VALUES (1)");
    }
    try (Connection again = pool.getConnection(); Statement count = again.createStatement();
        ResultSet rows = count.executeQuery("SELECT count(*) FROM " + table)) {
      assertThat(backend(again)).isEqualTo(backend);
      assertThat(again.getAutoCommit()).isTrue();
      rows.next();
      assertThat(rows.getInt(1)).isZero();
    }
  }

  @Test
  void aConnectionWhoseSessionSettingsChangedIsClosedInsteadOfKept() throws Exception {
    UrlSessionPool pool = pool(2);
    int changed;
    try (Connection connection = pool.getConnection()) {
      changed = backend(connection);
      connection.setReadOnly(true);
    }
    assertThat(pool.stats()).isEqualTo(new SessionPoolStats(2, 0, 0, 0));
    assertThat(sessionsSettlingAt(0)).isZero();
    try (Connection next = pool.getConnection()) {
      assertThat(backend(next)).isNotEqualTo(changed);
      assertThat(next.isReadOnly()).isFalse();
    }
  }

  @Test
  void aSessionTheServerEndedWhileIdleIsReplacedBeforeItIsLent() throws Exception {
    UrlSessionPool pool = pool(1, Duration.ofSeconds(10), Duration.ZERO);
    int ended;
    try (Connection connection = pool.getConnection()) {
      ended = backend(connection);
    }
    try (Connection admin = schema.connect();
        PreparedStatement terminate = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
      terminate.setInt(1, ended);
      terminate.execute();
    }
    assertThat(sessionsSettlingAt(0)).isZero();
    try (Connection replacement = pool.getConnection()) {
      assertThat(backend(replacement)).isNotEqualTo(ended);
    }
    assertThat(pool.stats()).isEqualTo(new SessionPoolStats(1, 0, 1, 0));
  }

  @Test
  void aReturnedConnectionRefusesUseAndIsReturnedOnlyOnce() throws Exception {
    UrlSessionPool pool = pool(2);
    Connection connection = pool.getConnection();
    connection.close();
    assertThat(connection.isClosed()).isTrue();
    assertThatThrownBy(connection::createStatement).isInstanceOfSatisfying(SQLNonTransientConnectionException.class,
        e -> assertThat(e.getSQLState()).isEqualTo("08003")).hasMessageContaining("went back to");
    connection.close();
    assertThat(pool.stats()).isEqualTo(new SessionPoolStats(2, 0, 1, 0));
  }

  @Test
  void closingThePoolClosesIdleSessionsNowLentOnesWhenReturnedAndRefusesWaitingAndNewCallers() throws Exception {
    UrlSessionPool pool = pool(2);
    Connection lent = pool.getConnection();
    try (Connection returned = pool.getConnection()) {
      backend(returned);
    }
    CompletableFuture<Throwable> waiting;
    try (Connection other = pool.getConnection()) {
      waiting = CompletableFuture.supplyAsync(() -> {
        try (Connection connection = pool.getConnection()) {
          return null;
        } catch (SQLException | RuntimeException e) {
          return e;
        }
      });
      Thread.sleep(200);
      assertThat(waiting).isNotDone();
      pool.close();
      assertThat(waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(SQLNonTransientConnectionException.class)
          .hasMessageContaining("pool is closed");
      assertThat(backend(lent)).as("a lent connection works until it is returned").isPositive();
    }
    assertThat(sessionsSettlingAt(1)).isEqualTo(1);
    lent.close();
    assertThat(sessionsSettlingAt(0)).isZero();
    assertThat(pool.stats()).isEqualTo(new SessionPoolStats(2, 0, 0, 0));
    assertThatThrownBy(pool::getConnection).isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("pool is closed");
    pool.close();
  }

  @Test
  void aConnectionThatCannotBeOpenedFreesItsPlaceAndItsFailureNamesNoPassword() {
    UrlSessionPool pool = new UrlSessionPool(
        new UrlSessions("jdbc:postgresql://127.0.0.1:1/test?connectTimeout=2", "postgres", CANARY_PASSWORD), 1,
        Duration.ofSeconds(30), Duration.ZERO);
    pools.add(pool);
    for (int attempt = 0; attempt < 2; attempt++) {
      long started = System.nanoTime();
      assertThatThrownBy(pool::getConnection).isInstanceOf(SQLException.class)
          .hasMessageNotContaining(CANARY_PASSWORD);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no wait for a place").isLessThan(
          Duration.ofSeconds(10));
      assertThat(pool.stats()).isEqualTo(new SessionPoolStats(1, 0, 0, 0));
    }
  }

  @Test
  void aStoreOnAPostgresUrlMigratesAndRunsOnAPoolOfItsOwnThatItClosesWithTheStore() throws Exception {
    try (PostgresTestSchema own = PostgresTestSchema.unmigrated()) {
      JdbcConnectionStore store = JdbcConnectionStore.builder().jdbcUrl(url, PostgresTestSchema.user(),
          CANARY_PASSWORD).schema(own.name()).poolSize(2).build();
      try {
        assertThat(store.info().schemaVersion()).isEqualTo("10");
        assertThat(sessionsSettlingAt(1)).as("the migration's sessions are closed, one pooled one is left")
            .isEqualTo(1);
        ExecutorService callers = Executors.newFixedThreadPool(6);
        try {
          List<Future<Boolean>> claims = new ArrayList<>();
          for (int i = 0; i < 30; i++) {
            int n = i;
            claims.add(callers.submit(() -> store.claimEffect(ORG, "nonce-pool-" + n,
                AbstractJdbcConnectionStoreTest.toDispatchStarted(new EffectId("exec-pool-" + n),
                    new IdempotencyKey("key-pool-" + n))).claimed()));
          }
          for (Future<Boolean> claim : claims) {
            assertThat(claim.get(30, TimeUnit.SECONDS)).isTrue();
          }
        } finally {
          callers.shutdownNow();
        }
        assertThat(store.effectCountsByState()).containsValue(30L);
        // six callers, at most two sessions (how many overlapped is up to the scheduler)
        int open = store.sessionPool().orElseThrow().idle();
        assertThat(open).as("six callers share the pool's sessions").isBetween(1, 2);
        assertThat(store.sessionPool()).contains(new SessionPoolStats(2, 0, open, 0));
        assertThat(sessionsSettlingAt(open)).as("the server sees the pool's sessions and no other").isEqualTo(open);
        assertThat(store.toString()).doesNotContain(CANARY_PASSWORD);
      } finally {
        store.close();
      }
      assertThat(sessionsSettlingAt(0)).isZero();
    }
  }

  @Test
  void aPoolSizeIsRefusedAndNoPoolReportedWhereTheStoreHasNoPoolOfItsOwn(@TempDir Path temp) {
    assertThatThrownBy(() -> JdbcConnectionStore.builder().poolSize(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("poolSize must be at least 1, not 0");
    assertThatThrownBy(() -> JdbcConnectionStore.builder().sqliteFile(temp.resolve("z.db")).poolSize(4).build())
        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("poolSize applies to a jdbc:postgresql: url");
    assertThatThrownBy(() -> JdbcConnectionStore.builder().jdbcUrl("jdbc:sqlite:" + temp.resolve("z.db"), null, null)
        .poolSize(4).build()).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> JdbcConnectionStore.builder().dataSource(PostgresTestSchema.newDataSource())
        .poolSize(4).build()).isInstanceOf(IllegalStateException.class);
    assertThat(temp.resolve("z.db")).doesNotExist();
    try (JdbcConnectionStore embedded = JdbcConnectionStore.openSqlite(temp.resolve("z.db"));
        JdbcConnectionStore onDataSource = JdbcConnectionStore.builder()
            .dataSource(PostgresTestSchema.newDataSource(), Dialect.POSTGRESQL).schema(schema.name()).migrate(false)
            .build()) {
      assertThat(embedded.sessionPool()).as("one writer connection, no pool").isEmpty();
      assertThat(onDataSource.sessionPool()).as("the application's pool reports itself").isEmpty();
    }
  }
}
