package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Read connections to the embedded SQLite file beside its single writer, so that a read does not wait for a commit
 * in flight: in WAL mode a reader sees the last commit and neither blocks the writer nor waits for it. Each read runs
 * in a read transaction of its own ({@code BEGIN} … {@code COMMIT}, deferred: it takes no write lock), so the
 * statements of one read see one snapshot, and a read that starts after a write returned sees that write.
 * Connections are opened on first need, at most {@code max}, each with {@code query_only} on (a statement that would
 * write fails) and its own page cache and statement cache; when all are busy, {@link #read} returns {@link #BUSY}
 * without running the work, and the caller reads on the writer instead. A connection whose read transaction could not
 * be ended is closed, not reused; if a connection cannot be opened at all, a warning is logged once, none is tried
 * again and every read goes to the writer, as it would without this class. Thread-safe.
 */
final class ReadSessions implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReadSessions.class);

  /** Opens one reader connection. */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  private record Reader(Connection connection, SqlSession session, Map<String, PreparedStatement> statements) {}

  /** What {@link #read} returns when no reader is free. */
  static final Object BUSY = new Object();

  private final Opener opener;
  private final int max;
  private final ConcurrentLinkedDeque<Reader> idle = new ConcurrentLinkedDeque<>();
  private final AtomicInteger opened = new AtomicInteger();
  private final ThreadLocal<Reader> reading = new ThreadLocal<>();
  private volatile boolean closed;
  /** Set when a read connection could not be opened: none is tried again. */
  private final AtomicBoolean unavailable = new AtomicBoolean();

  ReadSessions(Opener opener, int max) {
    this.opener = opener;
    this.max = max;
  }

  /**
   * Runs {@code work} on a free reader, or returns {@link #BUSY} without running it when none is free. The caller has
   * checked that this thread is not inside a read already ({@link #readingOnThisThread}).
   */
  @SuppressWarnings("unchecked")
  <T> T read(SqlWork<T> work) throws SQLException {
    Reader reader = idle.pollFirst();
    if (reader == null) {
      if (closed || unavailable.get()) {
        return (T) BUSY;
      }
      if (opened.incrementAndGet() > max) {
        opened.decrementAndGet();
        return (T) BUSY;
      }
      try {
        reader = open();
      } catch (SQLException | RuntimeException e) {
        opened.decrementAndGet();
        if (unavailable.compareAndSet(false, true)) { // the writer serves every read from now on
          LOG.warn("ZeoCore store: a read connection could not be opened ({}); every read now waits for the writer",
              e.toString());
        }
        return (T) BUSY;
      }
    }
    boolean reusable = false;
    reading.set(reader);
    try {
      reader.session().execute("BEGIN");
      try {
        return work.run(reader.session());
      } finally {
        reader.session().execute("COMMIT"); // ends the read transaction; the connection serves the next read
        reusable = true;
      }
    } finally {
      reading.remove();
      if (reusable && !closed) {
        idle.addFirst(reader);
      } else {
        discard(reader);
      }
    }
  }

  /** Whether the calling thread is inside a {@link #read} (store transactions do not nest). */
  boolean readingOnThisThread() {
    return reading.get() != null;
  }

  private Reader open() throws SQLException {
    Connection connection = opener.open();
    try {
      SqlSession.plain(connection).execute("PRAGMA query_only = 1");
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    Map<String, PreparedStatement> statements = SqlSession.newCache();
    return new Reader(connection, SqlSession.caching(connection, statements), statements);
  }

  private void discard(Reader reader) {
    opened.decrementAndGet();
    for (PreparedStatement statement : reader.statements().values()) {
      try {
        statement.close();
      } catch (SQLException ignored) {
        // closing the connection releases it
      }
    }
    try {
      reader.connection().close();
    } catch (SQLException ignored) {
      // nothing was written on it
    }
  }

  @Override
  public void close() {
    closed = true;
    Reader reader;
    while ((reader = idle.pollFirst()) != null) {
      discard(reader);
    }
  }
}
