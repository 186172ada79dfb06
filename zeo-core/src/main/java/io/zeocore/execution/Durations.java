package io.zeocore.execution;

import java.time.Duration;

/** Duration checks shared by the execution records. */
final class Durations {

  private Durations() {}

  static Duration positive(Duration value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be greater than zero");
    }
    return value;
  }

  static Duration nonNegative(Duration value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " cannot be negative");
    }
    return value;
  }

  /** Converts nanoseconds to a Duration, saturating at zero for negative values. */
  static Duration ofNanosAtLeastZero(long nanos) {
    return nanos <= 0 ? Duration.ZERO : Duration.ofNanos(nanos);
  }

  /** Nanoseconds of a duration, saturating at {@link Long#MAX_VALUE} for very long durations. */
  static long toNanosSaturated(Duration value) {
    try {
      return value.toNanos();
    } catch (ArithmeticException overflow) {
      return value.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
