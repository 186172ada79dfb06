package io.zeocore.execution;

/**
 * The runner's only source of time. Every recorded timing, every budget decision and every backoff deadline is read
 * from it, so a test clock controls all of them. Values are nanoseconds from an arbitrary origin, like
 * {@link System#nanoTime()}, and must never decrease.
 */
@FunctionalInterface
public interface MonotonicClock {

  long nanoTime();

  /** {@link System#nanoTime()}. */
  static MonotonicClock system() {
    return System::nanoTime;
  }
}
