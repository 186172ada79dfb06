package io.zeocore.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A test clock that is also the sleeper: sleeping advances time instantly and is recorded. */
final class ManualClock implements MonotonicClock, Sleeper {

  private long now = 1_000_000_000L;
  private int reads;
  final List<Duration> sleeps = new ArrayList<>();

  @Override
  public synchronized long nanoTime() {
    reads++;
    return now;
  }

  @Override
  public synchronized void sleep(Duration duration) {
    sleeps.add(duration);
    now += duration.toNanos();
  }

  synchronized void advance(Duration duration) {
    now += duration.toNanos();
  }

  synchronized int reads() {
    return reads;
  }

  synchronized Duration totalSlept() {
    return sleeps.stream().reduce(Duration.ZERO, Duration::plus);
  }
}
