package io.zeocore.execution;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Run ids: random (version 4) UUIDs drawn from {@link ThreadLocalRandom}. They correlate one run's events,
 * observations and log lines; they are not secrets, so the cost of {@link UUID#randomUUID()}'s secure random (a shared,
 * synchronized source) is not paid on every run.
 */
final class ExecutionIds {

  private ExecutionIds() {}

  static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
    return new UUID(high, low).toString();
  }
}
