package io.zeocore.internal;

import java.time.Duration;

/**
 * Durations as nanoseconds for deadline arithmetic on {@link System#nanoTime()}-like clocks, saturating instead of
 * overflowing. One cap serves every caller: {@link #MAX_NANOS}, a quarter of {@code long}'s range (about 73 years), so
 * that {@code now + toNanos(d)} and {@code deadline - now} never overflow for any clock reading a JVM can produce.
 * A longer duration behaves as "no deadline in practice".
 */
public final class SaturatingDurations {

  /** The largest magnitude {@link #toNanos} returns: {@code Long.MAX_VALUE / 4} nanoseconds, about 73 years. */
  public static final long MAX_NANOS = Long.MAX_VALUE / 4;

  private SaturatingDurations() {}

  /** {@code value} in nanoseconds, clamped to {@code [-MAX_NANOS, MAX_NANOS]}. */
  public static long toNanos(Duration value) {
    if (value.compareTo(Duration.ofNanos(MAX_NANOS)) >= 0) {
      return MAX_NANOS;
    }
    if (value.compareTo(Duration.ofNanos(-MAX_NANOS)) <= 0) {
      return -MAX_NANOS;
    }
    return value.toNanos();
  }

  /** The nanosecond reading {@code timeout} after {@code nowNanos}. */
  public static long deadline(long nowNanos, Duration timeout) {
    return nowNanos + toNanos(timeout);
  }

  /** {@code nanos} as a duration, zero when negative. */
  public static Duration ofNanosAtLeastZero(long nanos) {
    return nanos <= 0 ? Duration.ZERO : Duration.ofNanos(nanos);
  }
}
