package io.zeocore.execution;

import io.zeocore.internal.SaturatingDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link TargetHealthStore}: cooldowns and probe leases in this JVM's memory, on a {@link MonotonicClock}.
 * It is {@link #local()}: its {@link TargetHealth} calls it on the run's thread and reads nothing in the background,
 * so share the {@link TargetHealth} (not this store) between runners of one JVM. Nothing survives a restart.
 * Thread-safe; each method is one atomic step.
 */
public final class InMemoryTargetHealthStore implements TargetHealthStore {

  private final MonotonicClock clock;
  private final Map<String, Row> rows = new ConcurrentHashMap<>();

  /** On the system's monotonic clock. */
  public InMemoryTargetHealthStore() {
    this(MonotonicClock.system());
  }

  /** On {@code clock} (a test's manual clock). */
  public InMemoryTargetHealthStore(MonotonicClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private record Row(FailureKind cause, CoolingReason reason, long coolingUntil, @Nullable String probeHolder,
      long probeUntil) {}

  @Override
  public List<Entry> read() {
    long now = clock.nanoTime();
    List<Entry> entries = new ArrayList<>(rows.size());
    rows.forEach((targetId, row) -> {
      boolean leased = row.probeHolder() != null && row.probeUntil() > now;
      entries.add(new Entry(targetId, row.cause(), row.reason(), Duration.ofNanos(Math.max(0, row.coolingUntil() - now)),
          leased ? row.probeHolder() : null, Duration.ofNanos(leased ? row.probeUntil() - now : 0)));
    });
    return entries;
  }

  @Override
  public void coolDown(String targetId, Duration coolFor, FailureKind cause, CoolingReason reason) {
    TargetIds.require(targetId);
    long until = clock.nanoTime() + SaturatingDurations.toNanos(coolFor);
    rows.compute(targetId, (id, row) -> row == null || row.coolingUntil() < until
        ? new Row(cause, reason, until, null, 0)
        : new Row(row.cause(), row.reason(), row.coolingUntil(), null, 0));
  }

  @Override
  public boolean tryProbe(String targetId, String holder, Duration lease) {
    Objects.requireNonNull(holder, "holder");
    long now = clock.nanoTime();
    long until = now + SaturatingDurations.toNanos(lease);
    boolean[] granted = {!rows.containsKey(targetId)};
    rows.computeIfPresent(targetId, (id, row) -> {
      granted[0] = false;
      if (row.coolingUntil() > now || (row.probeHolder() != null && row.probeUntil() > now)) {
        return row;
      }
      granted[0] = true;
      return new Row(row.cause(), row.reason(), row.coolingUntil(), holder, until);
    });
    return granted[0];
  }

  @Override
  public void reopen(String targetId, @Nullable String holder) {
    rows.computeIfPresent(targetId, (id, row) -> holder == null || holder.equals(row.probeHolder()) ? null : row);
  }

  @Override
  public void releaseProbe(String targetId, String holder) {
    rows.computeIfPresent(targetId, (id, row) -> holder.equals(row.probeHolder())
        ? new Row(row.cause(), row.reason(), row.coolingUntil(), null, 0) : row);
  }

  /** Forgets every cooldown and lease. */
  public void clear() {
    rows.clear();
  }

  @Override
  public boolean local() {
    return true;
  }
}
