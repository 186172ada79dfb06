package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where {@link TargetHealth} keeps target cooldowns and probe leases so that several runners, processes or machines
 * share them. Every time is the store's own clock: a writer says "for {@code coolFor} from now", a reader learns
 * "{@code coolingLeft} from now", and hosts whose clocks disagree never disagree about a cooldown. The default,
 * {@link InMemoryTargetHealthStore}, shares within one JVM; {@code JdbcConnectionStore.targetHealth()} of
 * {@code zeo-connections} shares through the SQLite file or PostgreSQL database the effect store already uses.
 *
 * <p>Implementations must be thread-safe and make each method one atomic step. {@link TargetHealth} calls
 * {@link #read()} and the writes from one background thread, and {@link #tryProbe} on the thread of the run that
 * would probe, once per instance per ended cooldown (unless {@link #local()}, when everything is called on the run's
 * thread). A method that fails throws any {@link RuntimeException}: the health view keeps what it knew and logs the
 * exception's class, never its message.
 */
public interface TargetHealthStore {

  /** Every target that is cooling or whose cooldown ended without a probe answer yet. */
  List<Entry> read();

  /**
   * Cools {@code targetId} until the store's now + {@code coolFor}, or keeps a later end it already has; either way
   * a probe lease on it is dropped (the probe failed, or a failure elsewhere outranks it).
   */
  void coolDown(String targetId, Duration coolFor, FailureKind cause, CoolingReason reason);

  /**
   * Hands the probe of {@code targetId} to {@code holder} until the store's now + {@code lease}: only when its
   * cooldown is over and nobody holds an unexpired lease.
   *
   * @return whether {@code holder} now holds the lease, or the store holds nothing for {@code targetId} (its cooldown
   *     ended elsewhere, or was never written): either way {@code holder} may call it
   */
  boolean tryProbe(String targetId, String holder, Duration lease);

  /**
   * Ends {@code targetId}'s cooldown: {@code holder}'s probe answered (only while {@code holder} still holds the
   * lease), or, for {@code null}, a run of a policy that ignores cooldowns got an answer.
   */
  void reopen(String targetId, @Nullable String holder);

  /** Gives {@code holder}'s probe lease back without a verdict (the probe was cancelled): another may take it. */
  void releaseProbe(String targetId, String holder);

  /**
   * Whether this store lives in the runner's own memory, so that {@link TargetHealth} calls it on the run's thread
   * and needs no background refresh. {@code false} by default.
   */
  default boolean local() {
    return false;
  }

  /**
   * Why a target cools: a provider's Retry-After, repeated failures within a window, or a probe that failed again.
   */
  enum CoolingReason implements WireValue.Lowercase {
    RETRY_AFTER,
    REPEATED_FAILURES,
    PROBE_FAILED;

    /** Parses a wire value ({@code retry_after}) or, leniently, the constant name. */
    @JsonCreator
    public static CoolingReason fromWireValue(String value) {
      return WireValues.parseLenient(CoolingReason.class, value);
    }
  }

  /**
   * One target's shared state as the store read it.
   *
   * @param coolingLeft how long it still cools by the store's clock, zero once over (then a probe decides)
   * @param probeHolder who holds the probe lease, or {@code null}
   * @param probeLeaseLeft how long that lease still runs by the store's clock, zero when none or expired
   */
  record Entry(String targetId, FailureKind cause, CoolingReason reason, Duration coolingLeft,
      @Nullable String probeHolder, Duration probeLeaseLeft) {

    public Entry {
      TargetIds.require(targetId);
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(reason, "reason");
      coolingLeft = coolingLeft.isNegative() ? Duration.ZERO : coolingLeft;
      probeLeaseLeft = probeLeaseLeft.isNegative() ? Duration.ZERO : probeLeaseLeft;
    }
  }
}
