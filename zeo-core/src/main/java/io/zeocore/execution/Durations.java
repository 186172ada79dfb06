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
}
