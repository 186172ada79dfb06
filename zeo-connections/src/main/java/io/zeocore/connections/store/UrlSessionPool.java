package io.zeocore.connections.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The store's own pool of connections to the database of a {@code jdbc:postgresql:} URL
 * ({@link JdbcConnectionStore.Builder#jdbcUrl}), so that an operation does not pay for a new server session (a
 * PostgreSQL connection costs a backend process, authentication and several round trips: tens of milliseconds, more
 * than the operation itself).
 *
 * <ul>
 *   <li><b>Bounded.</b> At most {@code size} physical connections exist at once, opened on demand (none at start) with
 *       {@link UrlSessions} and kept open when returned. A caller that finds all of them lent waits until one is
 *       returned, at most {@code maxWait}, then gets an {@link SQLTransientConnectionException} (SQLSTATE
 *       {@code 08001}) that says so; the oldest waiter is not guaranteed to be served first.
 *   <li><b>Returned clean.</b> {@link Connection#close()} on a lent connection gives it back. A connection returned
 *       with auto-commit off is rolled back and switched back to auto-commit, so no transaction and no lock outlives
 *       its operation. One whose session settings were changed through JDBC (isolation, read-only, catalog, schema,
 *       holdability, type map, client info, network timeout), one that is closed or aborted, and one whose reset
 *       fails, is closed instead of kept. After {@code close()} the lent object refuses every call but
 *       {@code close()} and {@code isClosed()}, so a caller cannot use a connection that another caller now holds.
 *   <li><b>Checked before reuse.</b> A connection idle for longer than {@code validateAfterIdle} is checked with
 *       {@link Connection#isValid} (one round trip, at most five seconds) before it is lent; a dead one (the server
 *       restarted, a proxy dropped it) is closed and the next one tried, or a new one opened.
 *   <li><b>Closed with the store.</b> {@link #close()} closes the idle connections at once and each lent one when it
 *       comes back; waiting callers and later ones get an {@link SQLNonTransientConnectionException}
 *       ({@code 08003}).
 * </ul>
 * Idle connections are not closed by age; a session the server or the network ends is found by the check above.
 */
final class UrlSessionPool implements OwnedDataSource, AutoCloseable {

  /** How long a caller waits for a connection to be returned when all are lent. */
  static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(30);
  /** Connections idle for less than this are lent without a check, as HikariCP's default bypass window. */
  static final Duration DEFAULT_VALIDATE_AFTER_IDLE = Duration.ofMillis(500);
  private static final int VALIDATION_TIMEOUT_SECONDS = 5;

  /** The {@link Connection} setters whose effect would outlive the operation that called them. */
  private static final Set<String> SESSION_SETTINGS = Set.of("setTransactionIsolation", "setReadOnly", "setCatalog",
      "setSchema", "setHoldability", "setTypeMap", "setClientInfo", "setNetworkTimeout", "abort");

  private final UrlSessions connections;
  private final int size;
  private final Duration maxWait;
  private final long validateAfterIdleNanos;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition returned = lock.newCondition();
  /** Idle connections, the most recently returned first. */
  private final ArrayDeque<Idle> idle = new ArrayDeque<>();
  /** Physical connections open or being opened: idle, lent, or on their way back. */
  private int open;
  /** Callers waiting for a connection to be returned. */
  private int waiting;
  private boolean closed;

  private record Idle(Connection connection, long returnedAt) {}

  UrlSessionPool(UrlSessions connections, int size, Duration maxWait, Duration validateAfterIdle) {
    if (size < 1) {
      throw new IllegalArgumentException("the store's connection pool needs a size of at least 1, not " + size);
    }
    this.connections = connections;
    this.size = size;
    this.maxWait = maxWait;
    this.validateAfterIdleNanos = validateAfterIdle.toNanos();
  }

  /**
   * Lends a connection: an idle one (checked first when it was idle for long), else a new one while fewer than
   * {@code size} exist, else the next one returned within {@code maxWait}.
   */
  @Override
  public Connection getConnection() throws SQLException {
    long deadline = System.nanoTime() + maxWait.toNanos();
    while (true) {
      Idle reusable = takeIdleOrReserve(deadline);
      if (reusable == null) {
        Connection fresh;
        try {
          fresh = connections.getConnection();
        } catch (SQLException | RuntimeException | Error e) {
          forget();
          throw e;
        }
        return lend(fresh);
      }
      Connection physical = reusable.connection();
      if (System.nanoTime() - reusable.returnedAt() < validateAfterIdleNanos || stillValid(physical)) {
        return lend(physical);
      }
      discard(physical);
    }
  }

  /** An idle connection, or {@code null} with a slot reserved for a new one; waits while every slot is lent. */
  private @Nullable Idle takeIdleOrReserve(long deadline) throws SQLException {
    lock.lock();
    try {
      while (true) {
        if (closed) {
          throw closedFailure();
        }
        Idle reusable = idle.pollFirst();
        if (reusable != null) {
          return reusable;
        }
        if (open < size) {
          open++;
          return null;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new SQLTransientConnectionException("no connection to the ZeoCore store's database was returned within "
              + maxWait.toMillis() + " ms: all " + size + " of its pool are in use (zeocore.connections.store."
              + "pool-size, or the builder's poolSize, sets how many)", "08001");
        }
        waiting++;
        try {
          returned.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLTransientConnectionException(
              "interrupted while waiting for a connection to the ZeoCore store's database", "08001", e);
        } finally {
          waiting--;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private static boolean stillValid(Connection physical) {
    try {
      return physical.isValid(VALIDATION_TIMEOUT_SECONDS);
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  private Connection lend(Connection physical) {
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        new Lent(physical));
  }

  /** Takes back a connection whose borrower closed it: kept when it could be reset, else closed. */
  private void giveBack(Connection physical, boolean settingsChanged) {
    boolean keep = !settingsChanged;
    try {
      if (keep && physical.isClosed()) {
        keep = false;
      }
      if (keep && !physical.getAutoCommit()) {
        physical.rollback();
        physical.setAutoCommit(true);
      }
      if (keep) {
        physical.clearWarnings();
      }
    } catch (SQLException | RuntimeException e) {
      keep = false;
    }
    if (!keep) {
      discard(physical);
      return;
    }
    lock.lock();
    try {
      if (!closed) {
        idle.addFirst(new Idle(physical, System.nanoTime()));
        returned.signal();
        return;
      }
      open--;
    } finally {
      lock.unlock();
    }
    closeQuietly(physical);
  }

  private void discard(Connection physical) {
    closeQuietly(physical);
    forget();
  }

  /** One physical connection fewer (closed, or never opened): a waiting caller may open a new one. */
  private void forget() {
    lock.lock();
    try {
      open--;
      returned.signal();
    } finally {
      lock.unlock();
    }
  }

  private static void closeQuietly(Connection physical) {
    try {
      physical.close();
    } catch (SQLException | RuntimeException e) {
      // closing a connection that is already broken: nothing more to release
    }
  }

  private static SQLNonTransientConnectionException closedFailure() {
    return new SQLNonTransientConnectionException("the ZeoCore store's connection pool is closed", "08003");
  }

  /** What the pool holds now: its size, lent, idle and waiting (a connection being opened counts as lent). */
  SessionPoolStats stats() {
    lock.lock();
    try {
      return new SessionPoolStats(size, open - idle.size(), idle.size(), waiting);
    } finally {
      lock.unlock();
    }
  }

  /** Closes the idle connections now and every lent one when it is returned; refuses new loans. Idempotent. */
  @Override
  public void close() {
    List<Idle> closing;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      closing = new ArrayList<>(idle);
      open -= idle.size();
      idle.clear();
      returned.signalAll();
    } finally {
      lock.unlock();
    }
    for (Idle connection : closing) {
      closeQuietly(connection.connection());
    }
  }

  @Override
  public String toString() {
    return "UrlSessionPool[" + connections + ", size " + size + "]";
  }

  /** The borrower's view of one physical connection, until it closes it. */
  private final class Lent implements InvocationHandler {

    private final Connection physical;
    private final AtomicBoolean givenBack = new AtomicBoolean();
    private volatile boolean settingsChanged;

    Lent(Connection physical) {
      this.physical = physical;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "close":
          if (givenBack.compareAndSet(false, true)) {
            giveBack(physical, settingsChanged);
          }
          return null;
        case "isClosed":
          return givenBack.get() || physical.isClosed();
        case "equals":
          return proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        case "toString":
          return "ZeoCore store connection" + (givenBack.get() ? " (returned)" : "");
        default:
          break;
      }
      if (givenBack.get()) {
        throw new SQLNonTransientConnectionException(
            "this connection was closed: it went back to the ZeoCore store's pool", "08003");
      }
      if (SESSION_SETTINGS.contains(method.getName())) {
        settingsChanged = true;
      }
      try {
        return method.invoke(physical, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
