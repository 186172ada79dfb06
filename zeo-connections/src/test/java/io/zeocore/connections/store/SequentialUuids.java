package io.zeocore.connections.store;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** Deterministic version-4 UUIDs for golden tests: {@code 00000000-0000-4000-8000-000000000001}, then 2, 3, … */
public final class SequentialUuids implements Supplier<UUID> {

  private final AtomicLong next = new AtomicLong();

  public static UUID uuid(long n) {
    return UUID.fromString(String.format("00000000-0000-4000-8000-%012d", n));
  }

  @Override
  public UUID get() {
    return uuid(next.incrementAndGet());
  }
}
