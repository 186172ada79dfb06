package io.zeocore.connections.store;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A private schema {@code zeocore_test_<random>} in the local PostgreSQL test server (127.0.0.1:5432, database
 * {@code test}, user {@code postgres}, trust authentication), dropped with {@code CASCADE} at the end.
 *
 * <p>As a JUnit extension ({@code @RegisterExtension static final PostgresTestSchema schema =
 * PostgresTestSchema.migrated();}) it migrates ZeoCore's schema into a new schema before the class's tests, empties
 * the data tables before each test and drops the schema after the class.
 *
 * <p>The skip rule lives here and only here: when the server cannot be reached, every test of the class is reported
 * skipped with the reason (an aborted assumption per test, so that build reports show the count and the message);
 * when the environment variable {@value #REQUIRE_VARIABLE} is {@code true} (CI sets it), the class fails instead.
 */
public final class PostgresTestSchema implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback,
    AutoCloseable {

  static final String REQUIRE_VARIABLE = "ZEOCORE_REQUIRE_POSTGRES";
  private static final String HOST = "127.0.0.1";
  private static final int PORT = 5432;
  private static final String DATABASE = "test";
  private static final String USER = "postgres";

  /** Every ZeoCore table that holds data (not the fixed transition table), for {@link #clear()}. */
  private static final List<String> DATA_TABLES = List.of("connections", "connector_revisions", "executions",
      "authorization_nonces", "evidence_references", "receipts", "observations",
      "observation_receipts", "dispatch_clock", "recovery_leases", "target_health");

  private final String name;
  private final DataSource admin;
  private String unreachable;

  private PostgresTestSchema() {
    this.name = "zeocore_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    this.admin = newDataSource();
  }

  /** The extension: a schema migrated for one test class, emptied before each test. */
  public static PostgresTestSchema migrated() {
    return new PostgresTestSchema();
  }

  /**
   * Another schema name, not yet created (ZeoCore's migration creates it), for a test that needs a database of its
   * own; {@link #close()} drops it. Only for use inside a test of a class that registers {@link #migrated()}, which
   * has already applied the skip rule.
   */
  public static PostgresTestSchema unmigrated() {
    return new PostgresTestSchema();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    try (Connection connection = admin.getConnection()) {
      connection.isValid(2);
    } catch (SQLException e) {
      String reason = "PostgreSQL is not reachable at " + HOST + ":" + PORT + " (database " + DATABASE + ", user "
          + USER + "): " + e.getMessage();
      if ("true".equalsIgnoreCase(System.getenv(REQUIRE_VARIABLE))) {
        fail(reason + "; " + REQUIRE_VARIABLE + "=true requires it");
      }
      unreachable = reason + "; PostgreSQL tests are skipped (set " + REQUIRE_VARIABLE + "=true to fail instead)";
      return;
    }
    ZeoCoreSchema.migrate(newDataSource(), Dialect.POSTGRESQL, name);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (unreachable != null) {
      abort(unreachable);
    }
    clear();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (unreachable == null) {
      close();
    }
  }

  /**
   * A new data source on the test database: each one stands for another application instance (its own physical
   * connections, no pool).
   */
  public static DataSource newDataSource() {
    return newDataSource(null);
  }

  /**
   * A new data source whose sessions start with {@code options} (server settings, for example
   * {@code -c default_transaction_isolation=serializable} for a pool configured that way), or none when {@code null}.
   */
  public static DataSource newDataSource(String options) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setOptions(options);
    dataSource.setServerNames(new String[] {HOST});
    dataSource.setPortNumbers(new int[] {PORT});
    dataSource.setDatabaseName(DATABASE);
    dataSource.setUser(USER);
    dataSource.setConnectTimeout(2);
    dataSource.setLoginTimeout(2);
    dataSource.setApplicationName("zeocore-tests");
    return dataSource;
  }

  /** The JDBC URL of the test database (no credentials beyond the user name). */
  public static String jdbcUrl() {
    return "jdbc:postgresql://" + HOST + ":" + PORT + "/" + DATABASE;
  }

  public static String user() {
    return USER;
  }

  public String name() {
    return name;
  }

  /** A superuser connection for assertions that bypass the store. */
  public Connection connect() throws SQLException {
    return admin.getConnection();
  }

  /**
   * Empties every data table between tests of one class. The append-only triggers refuse TRUNCATE, so this runs with
   * {@code session_replication_role = replica}, which a superuser may set and under which ordinary triggers do not
   * fire: a test-only back door that no application connection has.
   */
  public void clear() {
    StringBuilder tables = new StringBuilder();
    for (String table : DATA_TABLES) {
      tables.append(tables.isEmpty() ? "" : ", ").append(name).append('.').append(table);
    }
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("SET LOCAL session_replication_role = replica");
      statement.execute("TRUNCATE " + tables + " RESTART IDENTITY");
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("clearing test schema " + name + " failed", e);
    }
  }

  /**
   * Makes a race deterministic: starts {@code tasks} on their own threads, waits until each is blocked on a lock held
   * by {@code blocker}'s open transaction (so all are in flight on the same key or row at once), then commits or rolls
   * that transaction back and returns the tasks' results in order.
   */
  public <T> List<T> whileBlocked(Connection blocker, boolean commit, List<Callable<T>> tasks) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(tasks.size());
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> task : tasks) {
        futures.add(threads.submit(task));
      }
      awaitLockWaiters(blocker, tasks.size());
      if (commit) {
        blocker.commit();
      } else {
        blocker.rollback();
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(20, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * Polls until {@code count} sessions wait, directly or behind one another, for a lock held by {@code blocker}'s
   * backend. (A second waiter for the same row queues behind the first waiter, not behind the holder.)
   */
  private void awaitLockWaiters(Connection blocker, int count) throws Exception {
    int holder;
    try (PreparedStatement backend = blocker.prepareStatement("SELECT pg_backend_pid()");
        ResultSet row = backend.executeQuery()) {
      row.next();
      holder = row.getInt(1);
    }
    try (Connection observer = connect();
        PreparedStatement sessions = observer.prepareStatement("SELECT pid, pg_blocking_pids(pid)"
            + " FROM pg_stat_activity WHERE datname = current_database()")) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < deadline) {
        Map<Integer, Set<Integer>> blockedBy = new HashMap<>();
        try (ResultSet rows = sessions.executeQuery()) {
          while (rows.next()) {
            Set<Integer> blockers = new HashSet<>();
            for (Object pid : (Object[]) rows.getArray(2).getArray()) {
              blockers.add(((Number) pid).intValue());
            }
            blockedBy.put(rows.getInt(1), blockers);
          }
        }
        Set<Integer> behindHolder = new HashSet<>(Set.of(holder));
        boolean grew = true;
        while (grew) {
          grew = false;
          for (Map.Entry<Integer, Set<Integer>> session : blockedBy.entrySet()) {
            if (!behindHolder.contains(session.getKey())
                && !Collections.disjoint(session.getValue(), behindHolder)) {
              grew = behindHolder.add(session.getKey());
            }
          }
        }
        if (behindHolder.size() - 1 >= count) {
          return;
        }
        Thread.sleep(10);
      }
    }
    throw new AssertionError("the racing instances never blocked on the held lock");
  }

  /** Drops the schema and everything in it. */
  @Override
  public void close() {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("dropping test schema " + name + " failed", e);
    }
  }
}
