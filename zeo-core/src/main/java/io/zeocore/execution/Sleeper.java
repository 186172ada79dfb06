package io.zeocore.execution;

import java.time.Duration;

/**
 * Blocks the synchronous runner's thread during a backoff slice. Slices are never longer than the policy's
 * {@link ExecutionPolicy#cancellationPoll()}. A test sleeper should advance its test {@link MonotonicClock} by the
 * requested duration.
 */
@FunctionalInterface
public interface Sleeper {

  void sleep(Duration duration) throws InterruptedException;

  /** {@link Thread#sleep(long, int)}. */
  static Sleeper system() {
    return duration -> {
      long nanos = duration.toNanos();
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    };
  }
}
