package io.zeocore.connections.internal;

import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Strictly increasing instants at microsecond precision (the reference's {@code _timestamp_after}). Under a lock: read
 * the clock truncated to microseconds; the floor is the larger of the last instant this instance issued and
 * {@code previous}; a reading at or below the floor becomes floor + 1 µs. Passing an execution's last stored instant
 * as {@code previous} keeps its times moving forward across instances and restarts, also when the clock is fixed or
 * goes backwards.
 */
public final class Timestamps {

  private static final long MICRO = 1;

  private final InstantSource clock;
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable Instant last;

  public Timestamps(InstantSource clock) {
    if (clock == null) {
      throw new IllegalArgumentException("clock is required");
    }
    this.clock = clock;
  }

  /** The next instant of this instance. */
  public Instant next() {
    return next(null);
  }

  /** The next instant of this instance that is also strictly after {@code previous} (if not {@code null}). */
  public Instant next(@Nullable Instant previous) {
    lock.lock();
    try {
      Instant reading = clock.instant();
      if (reading == null) {
        throw new IllegalStateException("clock must return an instant");
      }
      reading = reading.truncatedTo(ChronoUnit.MICROS);
      Instant floor = last;
      if (previous != null && (floor == null || previous.isAfter(floor))) {
        floor = previous.truncatedTo(ChronoUnit.MICROS);
      }
      Instant next = floor != null && !reading.isAfter(floor) ? floor.plus(MICRO, ChronoUnit.MICROS) : reading;
      last = next;
      return next;
    } finally {
      lock.unlock();
    }
  }
}
