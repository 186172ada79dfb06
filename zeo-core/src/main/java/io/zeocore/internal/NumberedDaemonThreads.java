package io.zeocore.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread factory of ZeoCore's own JVM-wide pools: every thread is a daemon, so a pool that lives as long as the
 * JVM never keeps it from exiting, and is named {@code prefix} followed by 1, 2, 3, … in creation order, so a thread
 * dump tells which pool a thread belongs to. Each factory counts on its own; {@link #newThread} is thread-safe and
 * does not start the thread.
 */
public final class NumberedDaemonThreads implements ThreadFactory {

  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  /** A factory whose threads are named {@code prefix} followed by their number, for example {@code zeocore-io-}. */
  public NumberedDaemonThreads(String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      throw new IllegalArgumentException("prefix is required");
    }
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + count.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }
}
