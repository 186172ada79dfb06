package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One owned writer connection, with <b>group commit</b>, and optionally {@link ReadSessions} beside it for reads
 * that arrive while the writer is busy: write transactions that callers submit while another batch is committing are
 * run together in the next transaction and made durable by one commit (one fsync on SQLite). This is the embedded
 * SQLite file's single writer; other processes on the same file queue on {@code BEGIN IMMEDIATE} and
 * {@code busy_timeout}. Prepared statements are cached for the connection's life.
 *
 * <h2>What a caller of {@link #write} can rely on</h2>
 * <ul>
 *   <li>{@link #write} returns only after the transaction that contains its work has committed; with
 *       {@code synchronous=FULL} that commit is durable. It throws if its own work failed (the work's exception, as
 *       is) or if the batch's {@code BEGIN} or {@code COMMIT} failed (that {@link SQLException}, or whatever else the
 *       commit threw, an {@link Error} included); then none of its writes are in the database.
 *   <li>Its caller waits asleep until then, whether or not it is interrupted: an interrupt cannot withdraw a work that
 *       may already be committing, so it is kept and is still set when {@link #write} returns or throws.
 *   <li>Each work runs inside its own savepoint when the batch has more than one: a work that throws is rolled back
 *       to its savepoint alone and its siblings go on. If SQLite rolled the whole transaction back by itself (for
 *       example {@code SQLITE_FULL}), every work of the batch fails.
 *   <li>Works of one batch run one after the other on the connection, in arrival order, and see each other's
 *       uncommitted writes; a work that fails because of a sibling's write (a uniqueness conflict) still reports its
 *       failure. Compare-and-set updates, uniqueness and trigger guards apply exactly as in separate transactions.
 * </ul>
 *
 * <h2>Bounds</h2>
 * A batch holds at most {@value #MAX_BATCH} works. There is no deliberate wait: a batch is whatever arrived while the
 * previous one was committing, so a lone caller pays nothing extra (its work runs as a plain transaction, without a
 * savepoint) and the wait of a queued caller is bounded by the batch in flight plus its own.
 *
 * <h2>Waiting</h2>
 * The leader of a batch is a queued caller that takes the connection's lock; it drains the queue, runs and commits
 * the batch, then hands each other caller of the batch its outcome and wakes it. Followers never take the lock to
 * learn their outcome, so they all return at once after a commit instead of passing the lock to each other one by one,
 * and the next leader — the caller at the head of the queue, woken whenever the lock is released — starts the next
 * batch meanwhile. Reads never join a batch: a read runs on the writer when it is idle, else on a free read
 * connection, else on the writer once it is free ({@link #read}). Thread-safe.
 */
final class GroupCommitDatabase implements StoreDatabase {

  /** The most works one transaction commits together. */
  static final int MAX_BATCH = 64;

  /**
   * How long a queued caller sleeps at most before looking again whether its work is done or the lock is free; it
   * is woken explicitly in both cases, so this bound only caps the cost of a wake-up that could never be observed.
   */
  private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final SqlDialect dialect;
  private final Connection connection;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, PreparedStatement> statements = SqlSession.newCache();
  private final SqlSession session;
  private final ConcurrentLinkedQueue<Pending<?>> queue = new ConcurrentLinkedQueue<>();
  private final Committer committer;
  private final @Nullable ReadSessions readers;
  private boolean closed;

  /** How a batch's transaction is committed; replaced in tests to make a commit fail. */
  @FunctionalInterface
  interface Committer {
    void commit(SqlDialect dialect, SqlSession session) throws SQLException;
  }

  GroupCommitDatabase(SqlDialect dialect, Connection connection) {
    this(dialect, connection, SqlDialect::commit, null);
  }

  GroupCommitDatabase(SqlDialect dialect, Connection connection, Committer committer) {
    this(dialect, connection, committer, null);
  }

  /** With {@code readers} ({@code null} for none) serving reads while they have a free connection. */
  GroupCommitDatabase(SqlDialect dialect, Connection connection, Committer committer,
      @Nullable ReadSessions readers) {
    this.dialect = dialect;
    this.connection = connection;
    this.session = SqlSession.caching(connection, statements);
    this.committer = committer;
    this.readers = readers;
  }

  /**
   * One submitted work and, once its batch is over, its outcome: {@code result} and {@code failure} are written by
   * the batch's leader before the volatile {@code done}, and read by the submitting thread after it.
   */
  private static final class Pending<T> {

    final SqlWork<T> work;
    final Thread caller = Thread.currentThread();
    volatile boolean done;
    @Nullable T result;
    @Nullable Throwable failure;

    Pending(SqlWork<T> work) {
      this.work = work;
    }

    void succeed(T value) {
      result = value;
    }

    void fail(Throwable cause) {
      failure = cause;
    }

    /**
     * Publishes the outcome recorded so far and wakes the caller (the leader's own work is published too). A batch
     * that ends normally has recorded one for each of its works; one that ends abnormally records a failure first.
     */
    void complete() {
      done = true;
      if (caller != Thread.currentThread()) {
        LockSupport.unpark(caller);
      }
    }

    @SuppressWarnings("NullAway") // the result of a work that ended without failure: the work's non-null T
    T outcome() throws SQLException {
      if (failure == null) {
        return result;
      }
      if (failure instanceof SQLException sql) {
        throw sql;
      }
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (failure instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public SqlDialect sql() {
    return dialect;
  }

  @Override
  public <T> T write(SqlWork<T> work) throws SQLException {
    if (lock.isHeldByCurrentThread() || readers != null && readers.readingOnThisThread()) {
      throw new IllegalStateException("store transactions do not nest");
    }
    Pending<T> pending = new Pending<>(work);
    queue.add(pending);
    boolean interrupted = false;
    try {
      lead(pending);
      while (!pending.done) {
        // an interrupt cannot withdraw a work that may already be committing: it is kept for the caller, and the
        // wait goes on (a pending interrupt would otherwise make every park return at once)
        LockSupport.parkNanos(this, RECHECK_NANOS); // woken when its batch is over or when the lock is released
        interrupted |= Thread.interrupted();
        lead(pending);
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return pending.outcome();
  }

  /** Runs batches while the lock is free and {@code pending} is not done; returns when either is no longer so. */
  private void lead(Pending<?> pending) {
    while (!pending.done) {
      if (lock.tryLock()) {
        try {
          if (!pending.done) {
            checkUsable(pending);
            List<Pending<?>> batch = drain();
            boolean ended = false;
            try {
              runBatch(batch);
              ended = true;
            } finally {
              for (Pending<?> queued : batch) {
                if (!ended) {
                  queued.fail(new IllegalStateException("the store's batch ended abnormally; whether it committed is"
                      + " unknown"));
                }
                queued.complete();
              }
            }
          }
        } finally {
          release();
        }
      } else {
        return;
      }
    }
  }

  /**
   * Runs {@code work} on the writer connection when it is idle; while a batch holds it, on a free read connection
   * instead (one read transaction: a snapshot of the last commit, so never older than any write that returned before
   * this call), and only when none is free, on the writer once the batch is over.
   */
  @Override
  @SuppressWarnings("unchecked")
  public <T> T read(SqlWork<T> work) throws SQLException {
    if (lock.isHeldByCurrentThread() || readers != null && readers.readingOnThisThread()) {
      throw new IllegalStateException("store transactions do not nest");
    }
    if (!lock.tryLock()) {
      Object result = readers == null ? ReadSessions.BUSY : readers.read(work);
      if (result != ReadSessions.BUSY) {
        return (T) result;
      }
      lock.lock();
    }
    try {
      if (closed) {
        throw new IllegalStateException("the store's database is closed");
      }
      return work.run(session);
    } finally {
      release();
    }
  }

  /** Releases the lock and wakes the caller whose work is next in the queue, to lead the next batch. */
  private void release() {
    lock.unlock();
    Pending<?> next = queue.peek();
    if (next != null) {
      LockSupport.unpark(next.caller);
    }
  }

  /** How many writes are queued and not yet in a batch (for tests). */
  int queuedWrites() {
    return queue.size();
  }

  private void checkUsable(Pending<?> pending) {
    if (closed) {
      queue.remove(pending);
      throw new IllegalStateException("the store's database is closed");
    }
  }

  private List<Pending<?>> drain() {
    List<Pending<?>> batch = new ArrayList<>();
    Pending<?> next;
    while (batch.size() < MAX_BATCH && (next = queue.poll()) != null) {
      batch.add(next);
    }
    return batch;
  }

  private void runBatch(List<Pending<?>> batch) {
    if (batch.isEmpty()) {
      return;
    }
    if (batch.size() == 1) {
      runAlone(batch.get(0));
      return;
    }
    boolean restore;
    try {
      restore = dialect.begin(session);
    } catch (Throwable e) {
      batch.forEach(pending -> pending.fail(e));
      return;
    }
    try {
      List<Pending<?>> succeeded = new ArrayList<>(batch.size());
      for (int i = 0; i < batch.size(); i++) {
        Pending<?> pending = batch.get(i);
        if (!runInSavepoint(pending)) {
          // the transaction itself is gone: nothing of this batch can commit
          SQLException lost = new SQLException("the store transaction was rolled back by the database");
          lost.initCause(pending.failure);
          for (Pending<?> other : batch) {
            if (other != pending) {
              other.fail(lost);
            }
          }
          dialect.rollback(session, lost);
          return;
        }
        if (pending.failure == null) {
          succeeded.add(pending);
        }
      }
      try {
        committer.commit(dialect, session);
      } catch (Throwable e) {
        dialect.rollback(session, e);
        succeeded.forEach(pending -> pending.fail(e));
      }
    } finally {
      try {
        dialect.end(session, restore);
      } catch (SQLException e) {
        for (Pending<?> pending : batch) {
          if (pending.failure == null) {
            pending.fail(e);
          }
        }
      }
    }
  }

  /**
   * Runs one work of a batch in its own savepoint. Returns {@code false} when the database rolled back the whole
   * transaction (the savepoint no longer exists).
   */
  private <T> boolean runInSavepoint(Pending<T> pending) {
    try {
      session.execute("SAVEPOINT zeocore_work");
    } catch (SQLException | RuntimeException e) {
      pending.fail(e);
      return false;
    }
    T result;
    try {
      result = pending.work.run(session);
    } catch (Throwable failure) {
      pending.fail(failure);
      try {
        session.execute("ROLLBACK TO zeocore_work");
        session.execute("RELEASE zeocore_work");
        return true;
      } catch (SQLException | RuntimeException lost) {
        failure.addSuppressed(lost);
        return false;
      }
    }
    try {
      session.execute("RELEASE zeocore_work");
    } catch (SQLException | RuntimeException e) {
      pending.fail(e);
      return false;
    }
    pending.succeed(result);
    return true;
  }

  private <T> void runAlone(Pending<T> pending) {
    boolean restore;
    try {
      restore = dialect.begin(session);
    } catch (Throwable e) {
      pending.fail(e);
      return;
    }
    try {
      T result;
      try {
        result = pending.work.run(session);
        committer.commit(dialect, session);
      } catch (Throwable failure) {
        dialect.rollback(session, failure);
        pending.fail(failure);
        return;
      }
      pending.succeed(result);
    } finally {
      try {
        dialect.end(session, restore);
      } catch (SQLException e) {
        if (pending.failure == null) {
          pending.fail(e);
        }
      }
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (readers != null) {
        readers.close();
      }
      for (PreparedStatement statement : statements.values()) {
        try {
          statement.close();
        } catch (SQLException ignored) {
          // closing the connection releases it anyway
        }
      }
      statements.clear();
      try {
        connection.close();
      } catch (SQLException e) {
        throw new IllegalStateException("closing the store's database connection failed", e);
      }
    } finally {
      release(); // a queued writer wakes, finds the database closed and wakes the next
    }
  }
}
