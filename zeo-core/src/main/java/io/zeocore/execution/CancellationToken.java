package io.zeocore.execution;

/**
 * Host-owned cancellation state observed by the runner and by well-behaved targets.
 *
 * <p>The runner checks the token before the first call, before each later call, after every failed attempt and in
 * bounded slices (at most {@link ExecutionPolicy#cancellationPoll()}) during backoff. It never checks it after a
 * successful attempt: a success observed while cancelled is still a success. Subprocess targets poll it while their
 * child runs. Implementations must be thread-safe and cheap: {@link #isCancelled()} is called from the runner's thread
 * and, for async runs, from scheduler threads.
 */
@FunctionalInterface
public interface CancellationToken {

  /** Whether the host has asked for the work to stop. */
  boolean isCancelled();

  /** A token that is never cancelled; used when the caller passes none. */
  static CancellationToken never() {
    return NeverCancelled.INSTANCE;
  }
}

enum NeverCancelled implements CancellationToken {
  INSTANCE;

  @Override
  public boolean isCancelled() {
    return false;
  }
}
