package io.zeocore.execution;

import io.zeocore.execution.TargetHealthStore.CoolingReason;
import io.zeocore.internal.NumberedDaemonThreads;
import io.zeocore.internal.SaturatingDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which targets are cooling down, shared by every run of the runners that hold this view and, through its
 * {@link TargetHealthStore}, by other processes and machines. Give it to a runner with
 * {@link ResilientRunner.Builder#targetHealth}.
 *
 * <h2>Rules</h2>
 * Each target id has a {@link TargetCooldown} (its own, else the {@linkplain Builder#defaultCooldown default}): an
 * attempt that ends {@code rate_limit} with a Retry-After cools its target for that long (capped); a number of
 * failures of chosen kinds within a window cools it for a set time. Cooldowns are about targets, not policies: every
 * policy's runs feed them and every policy's runs honour them, except a policy with
 * {@link ExecutionPolicy#ignoreCooldowns()} (a health check), whose attempts still count and whose answer from a
 * cooling target ends the cooldown.
 *
 * <h2>What a run does</h2>
 * Before calling a planned target the run asks this view, in memory: a cooling target is not called; the run records
 * the position as {@link AttemptOutcome#SKIPPED} ({@link MachineCodes#TARGET_COOLING}, the cooldown's cause as its
 * kind, {@code dispatchStarted=false}, no timeout spent) and moves to its next position at once, without backoff. A
 * run whose remaining positions are all cooling ends {@code EXHAUSTED} with {@link MachineCodes#TARGET_COOLING}. When
 * a cooldown is over, exactly one run across everything sharing the store probes the target (it takes the probe lease
 * by the store's clock; for a shared store that is the only store round trip a run ever makes, once per instance per
 * ended cooldown); the others keep skipping until the probe answers (the target reopens) or fails with a countable
 * kind or a rate limit (it cools again: for the Retry-After, else the rule's failure cooldown). A probe that fails with
 * another kind (the request's fault: validation, authentication) reopens the target; a cancelled probe gives its lease
 * back. A lease whose holder died expires after {@link Builder#probeLease}.
 *
 * <h2>Sharing and staleness</h2>
 * With a {@link TargetHealthStore#local() local} store (the default {@link InMemoryTargetHealthStore}) every change is
 * seen by the next run. With a shared store, a change made here applies here at once and is written to the store in
 * the background; changes made elsewhere are read every {@link Builder#refreshInterval} (default 500 ms), so another
 * instance's cooldown reaches this one within that interval plus one store read: under a second by default. Store
 * failures never fail a run: the view keeps what it knew and retries at the next refresh. Cooldown times are the
 * store's clock, so hosts whose clocks disagree agree about them, and a cooldown survives a restart of every
 * instance (a new view reads the store before it returns from {@link Builder#build}).
 *
 * <p>Thread-safe. Close it to stop the background refresh and flush pending writes.
 */
public final class TargetHealth implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TargetHealth.class);

  /** {@link Builder#refreshInterval}'s default. */
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofMillis(500);
  /** {@link Builder#probeLease}'s default. */
  public static final Duration DEFAULT_PROBE_LEASE = Duration.ofMinutes(1);

  /** A cooldown that ends within this of a run's gate counts as ended: a run's own Retry-After wait is not skipped. */
  private static final long GATE_TOLERANCE_NANOS = 1_000_000L;

  private final Map<String, TargetCooldown> rules;
  private final TargetCooldown defaultRule;
  private final TargetHealthStore store;
  private final MonotonicClock clock;
  private final Duration probeLease;
  private final long refreshNanos;
  private final String holder;
  private final List<Listener> listeners;
  private final @Nullable ScheduledThreadPoolExecutor background;
  private final Map<String, Cooling> cooling = new ConcurrentHashMap<>();
  private final Map<String, FailureWindow> failures = new ConcurrentHashMap<>();
  /** When this instance reopened a target (this clock), until a refresh that began later has read the store. */
  private final Map<String, Long> reopened = new ConcurrentHashMap<>();
  private volatile boolean storeFailing;

  private TargetHealth(Builder builder) {
    this.rules = Map.copyOf(builder.rules);
    this.defaultRule = builder.defaultRule;
    this.store = builder.store != null ? builder.store : new InMemoryTargetHealthStore(builder.clock);
    this.clock = builder.clock;
    this.probeLease = builder.probeLease;
    this.refreshNanos = SaturatingDurations.toNanos(builder.refreshInterval);
    this.holder = builder.instanceId != null ? builder.instanceId
        : "pid-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    this.listeners = List.copyOf(builder.listeners);
    if (store.local()) {
      background = null;
    } else {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(1, new NumberedDaemonThreads("zeocore-target-health-"));
      executor.setRemoveOnCancelPolicy(true);
      executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
      background = executor;
      refresh(); // a restarted instance honours the cooldowns already in the store from its first run
      executor.scheduleWithFixedDelay(this::refresh, refreshNanos, refreshNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** A view with the default rule for every target, in this JVM's memory. */
  public static TargetHealth inMemory() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether a target is cooling, waiting for its probe, or being probed by a run of this instance. */
  public enum Status implements io.zeocore.WireValue.Lowercase {
    /** Not called until its cooldown ends. */
    COOLING,
    /** Its cooldown is over; the next run that gets the probe lease calls it, the others skip it. */
    PROBE_DUE,
    /** A run of this instance is calling it as the probe. */
    PROBING
  }

  /**
   * One target that is not available, as this instance sees it.
   *
   * @param coolingLeft how long it still cools (zero once a probe is due)
   */
  public record TargetState(String targetId, Status status, FailureKind cause, CoolingReason reason,
      Duration coolingLeft) {}

  /** What changed: a target started cooling (again), a run of this instance started probing it, or it reopened. */
  public enum Transition implements io.zeocore.WireValue.Lowercase {
    COOLING_STARTED,
    PROBE_STARTED,
    COOLING_ENDED
  }

  /**
   * A change of one target's state as this instance saw it.
   *
   * @param cause the kind that cooled the target (for an end, the kind that had)
   * @param coolingFor how long the cooldown lasts from now ({@code COOLING_STARTED}), else zero
   * @param fromStore whether another instance made the change and this one read it from the store
   */
  public record Change(String targetId, Transition transition, FailureKind cause, CoolingReason reason,
      Duration coolingFor, boolean fromStore) {}

  /** Told of every {@link Change}; must be fast and must not throw (a throw is logged by class name and dropped). */
  @FunctionalInterface
  public interface Listener {
    void changed(Change change);
  }

  /** The targets that are not available now, sorted by id; an empty list when every target is. */
  public List<TargetState> states() {
    long now = clock.nanoTime();
    List<TargetState> states = new ArrayList<>();
    cooling.forEach((targetId, state) -> {
      Status status = state.probing ? Status.PROBING : state.untilNanos > now ? Status.COOLING : Status.PROBE_DUE;
      states.add(new TargetState(targetId, status, state.cause, state.reason,
          Duration.ofNanos(Math.max(0, state.untilNanos - now))));
    });
    states.sort((a, b) -> a.targetId().compareTo(b.targetId()));
    return Collections.unmodifiableList(states);
  }

  /** The rule {@code targetId} follows. */
  public TargetCooldown cooldown(String targetId) {
    return rules.getOrDefault(targetId, defaultRule);
  }

  /** The id this instance holds probe leases under. */
  public String instanceId() {
    return holder;
  }

  /** The store this view shares through. */
  public TargetHealthStore store() {
    return store;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // the runner's side

  /** What the gate decided for one planned position. */
  static final class Admission {

    static final Admission CALL = new Admission(null, false);
    static final Admission PROBE = new Admission(null, true);
    private static final Map<FailureKind, Admission> SKIPS = skipsByCause();

    private final @Nullable FailureKind skipCause;
    final boolean probe;

    private Admission(@Nullable FailureKind skipCause, boolean probe) {
      this.skipCause = skipCause;
      this.probe = probe;
    }

    static Admission skip(FailureKind cause) {
      return Objects.requireNonNull(SKIPS.get(cause), "every kind has a skip");
    }

    boolean skips() {
      return skipCause != null;
    }

    FailureKind cause() {
      return Objects.requireNonNull(skipCause, "not a skip");
    }

    private static Map<FailureKind, Admission> skipsByCause() {
      Map<FailureKind, Admission> skips = new EnumMap<>(FailureKind.class);
      for (FailureKind kind : FailureKind.values()) {
        skips.put(kind, new Admission(kind, false));
      }
      return skips;
    }
  }

  /**
   * Whether a run may call {@code targetId} now. Costs a map lookup when nothing cools; takes the probe lease when a
   * cooldown is over (the one store round trip, on a shared store).
   */
  Admission admit(String targetId, boolean ignoreCooldowns) {
    if (cooling.isEmpty()) {
      return Admission.CALL;
    }
    Cooling state = cooling.get(targetId);
    if (state == null || ignoreCooldowns) {
      return Admission.CALL;
    }
    long now = clock.nanoTime();
    if (now < state.untilNanos - GATE_TOLERANCE_NANOS || state.probing || now < state.probeBlockedUntil) {
      return Admission.skip(state.cause);
    }
    Cooling probing = state.probing(true);
    if (!cooling.replace(targetId, state, probing)) {
      return Admission.skip(state.cause); // another run of this instance changed it first
    }
    boolean granted;
    try {
      granted = store.tryProbe(targetId, holder, probeLease);
      storeAnswered();
    } catch (RuntimeException storeFailure) {
      storeFailed("taking a probe lease", storeFailure);
      granted = false;
    }
    if (!granted) {
      cooling.replace(targetId, probing, probing.probing(false).blockedUntil(now + refreshNanos));
      return Admission.skip(state.cause);
    }
    notify(new Change(targetId, Transition.PROBE_STARTED, state.cause, state.reason, Duration.ZERO, false));
    return Admission.PROBE;
  }

  /** An attempt on {@code targetId} answered. */
  void answered(String targetId, Admission admission, boolean ignoreCooldowns) {
    if (!admission.probe && (!ignoreCooldowns || cooling.isEmpty())) {
      return;
    }
    Cooling ended = cooling.remove(targetId);
    if (ended != null && background != null) {
      reopened.put(targetId, clock.nanoTime()); // a refresh already reading must not bring it back
    }
    String probeHolder = admission.probe ? holder : null;
    if (admission.probe || ended != null) {
      write(() -> store.reopen(targetId, probeHolder));
    }
    if (ended != null) {
      notify(new Change(targetId, Transition.COOLING_ENDED, ended.cause, ended.reason, Duration.ZERO, false));
    }
  }

  /** An attempt on {@code targetId} failed with {@code kind}; {@code retryAfter} is the provider's, if any. */
  void failed(String targetId, Admission admission, FailureKind kind, @Nullable Duration retryAfter,
      boolean ignoreCooldowns) {
    if (kind == FailureKind.CANCELLED) {
      if (admission.probe) {
        cooling.computeIfPresent(targetId, (id, state) -> state.probing(false));
        write(() -> store.releaseProbe(targetId, holder));
      }
      return;
    }
    TargetCooldown rule = cooldown(targetId);
    Duration coolFor = rule.retryAfterCooldown(kind, retryAfter);
    CoolingReason reason = CoolingReason.RETRY_AFTER;
    if (coolFor == null && rule.counts(kind)) {
      FailureWindow window = failures.computeIfAbsent(targetId, id -> new FailureWindow(rule.failureThreshold()));
      if (window.reached(clock.nanoTime(), SaturatingDurations.toNanos(rule.failureWindow()))) {
        coolFor = rule.failureCooldown();
        reason = CoolingReason.REPEATED_FAILURES;
      }
    }
    if (coolFor == null && admission.probe) {
      if (TargetCooldown.COUNTABLE_KINDS.contains(kind)) {
        coolFor = rule.failureCooldown();
        reason = CoolingReason.PROBE_FAILED;
      } else {
        answered(targetId, admission, ignoreCooldowns); // the request's fault: the target did answer
        return;
      }
    }
    if (coolFor != null) {
      coolDown(targetId, coolFor, kind, reason);
    }
  }

  private void coolDown(String targetId, Duration coolFor, FailureKind cause, CoolingReason reason) {
    long until = clock.nanoTime() + SaturatingDurations.toNanos(coolFor);
    Cooling[] before = new Cooling[1];
    Cooling after = cooling.compute(targetId, (id, state) -> {
      before[0] = state;
      if (state == null || state.untilNanos < until) {
        return new Cooling(until, cause, reason, false, 0, clock.nanoTime());
      }
      return state.probing(false);
    });
    write(() -> store.coolDown(targetId, coolFor, cause, reason));
    if (before[0] == null || before[0].probing || after.untilNanos != before[0].untilNanos) {
      notify(new Change(targetId, Transition.COOLING_STARTED, after.cause, after.reason, coolFor, false));
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // the background side

  /** Runs a store write: at once for a local store, else after the writes before it on the background thread. */
  private void write(Runnable storeWrite) {
    ScheduledThreadPoolExecutor executor = background;
    if (executor == null) {
      storeWrite.run();
      return;
    }
    try {
      executor.execute(() -> {
        try {
          storeWrite.run();
          storeAnswered();
        } catch (RuntimeException storeFailure) {
          storeFailed("writing a cooldown", storeFailure);
        }
      });
    } catch (RejectedExecutionException closed) {
      log.debug("ZeoCore target health is closed; a store write was dropped");
    }
  }

  /**
   * Reads the store and brings this view up to date: a target the store holds is cooling here for what the store says
   * is left; one it no longer holds reopened elsewhere. A change this instance made after the read began wins (its
   * write is queued behind the read).
   */
  void refresh() {
    long readStart = clock.nanoTime();
    List<TargetHealthStore.Entry> entries;
    try {
      entries = store.read();
      storeAnswered();
    } catch (RuntimeException storeFailure) {
      storeFailed("reading cooldowns", storeFailure);
      return;
    }
    long now = clock.nanoTime();
    Set<String> held = new HashSet<>();
    List<Change> changes = new ArrayList<>();
    for (TargetHealthStore.Entry entry : entries) {
      held.add(entry.targetId());
      long until = now + SaturatingDurations.toNanos(entry.coolingLeft());
      boolean leasedElsewhere = entry.probeHolder() != null && !holder.equals(entry.probeHolder());
      long blocked = leasedElsewhere ? now + SaturatingDurations.toNanos(entry.probeLeaseLeft()) : 0;
      Long reopenedAt = reopened.get(entry.targetId());
      if (reopenedAt != null && reopenedAt >= readStart) {
        continue; // reopened here while the store was read: its delete is queued behind this read
      }
      cooling.compute(entry.targetId(), (id, state) -> {
        if (state == null) {
          if (!entry.coolingLeft().isZero()) {
            changes.add(new Change(id, Transition.COOLING_STARTED, entry.cause(), entry.reason(), entry.coolingLeft(),
                true));
          }
          return new Cooling(until, entry.cause(), entry.reason(), false, blocked, readStart);
        }
        if (state.changedNanos >= readStart) {
          return state;
        }
        if (state.untilNanos <= now && !entry.coolingLeft().isZero()) {
          changes.add(new Change(id, Transition.COOLING_STARTED, entry.cause(), entry.reason(), entry.coolingLeft(),
              true)); // a probe elsewhere failed
        }
        return new Cooling(until, entry.cause(), entry.reason(), state.probing, blocked, state.changedNanos);
      });
    }
    for (Map.Entry<String, Cooling> local : cooling.entrySet()) {
      Cooling state = local.getValue();
      if (!held.contains(local.getKey()) && !state.probing && state.changedNanos < readStart
          && cooling.remove(local.getKey(), state)) {
        changes.add(new Change(local.getKey(), Transition.COOLING_ENDED, state.cause, state.reason, Duration.ZERO,
            true));
      }
    }
    // reopenings made before this read began had their deletes applied before it: the store now speaks for them
    reopened.values().removeIf(at -> at < readStart);
    changes.forEach(this::notify);
  }

  private void storeAnswered() {
    if (storeFailing) {
      storeFailing = false;
      log.info("ZeoCore target health: the store answers again");
    }
  }

  private void storeFailed(String what, RuntimeException failure) {
    if (!storeFailing) {
      storeFailing = true;
      log.warn("ZeoCore target health: {} failed with {}; this instance keeps its own view until the store answers",
          what, failure.getClass().getName());
    }
  }

  private void notify(Change change) {
    for (Listener listener : listeners) {
      try {
        listener.changed(change);
      } catch (RuntimeException listenerFailure) {
        log.warn("TargetHealth listener {} threw {}; the change stands", listener.getClass().getName(),
            listenerFailure.getClass().getName());
      }
    }
  }

  /**
   * Forgets every cooldown and failure count of this view, and of its store when that is an
   * {@link InMemoryTargetHealthStore}; a shared store keeps its rows (the next refresh reads them back). For tests
   * that share one application context: each starts with every target available.
   */
  public void reset() {
    cooling.clear();
    failures.clear();
    reopened.clear();
    if (store instanceof InMemoryTargetHealthStore memory) {
      memory.clear();
    }
  }

  /** Waits (up to 30 s) until the store writes queued before this call have run; at once for a local store. */
  void awaitWrites() {
    ScheduledThreadPoolExecutor executor = background;
    if (executor == null) {
      return;
    }
    try {
      executor.submit(() -> { }).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
        | RejectedExecutionException notRun) {
      throw new IllegalStateException("store writes did not finish", notRun);
    }
  }

  /** Stops the background refresh after the pending store writes (waiting up to a second for them). */
  @Override
  public void close() {
    ScheduledThreadPoolExecutor executor = background;
    if (executor != null) {
      executor.shutdown();
      try {
        executor.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return "TargetHealth[instance=" + holder + ", store=" + store.getClass().getSimpleName() + ", cooling="
        + cooling.keySet() + "]";
  }

  /** One unavailable target in this view; replaced, never changed. */
  private static final class Cooling {

    final long untilNanos;
    final FailureKind cause;
    final CoolingReason reason;
    /** A run of this instance holds the probe lease and is calling the target. */
    final boolean probing;
    /** Until when another instance holds the probe lease (this clock), or 0. */
    final long probeBlockedUntil;
    /** When this instance last changed it (this clock): a refresh that began before must not undo it. */
    final long changedNanos;

    Cooling(long untilNanos, FailureKind cause, CoolingReason reason, boolean probing, long probeBlockedUntil,
        long changedNanos) {
      this.untilNanos = untilNanos;
      this.cause = cause;
      this.reason = reason;
      this.probing = probing;
      this.probeBlockedUntil = probeBlockedUntil;
      this.changedNanos = changedNanos;
    }

    Cooling probing(boolean value) {
      return new Cooling(untilNanos, cause, reason, value, probeBlockedUntil, changedNanos);
    }

    Cooling blockedUntil(long nanos) {
      return new Cooling(untilNanos, cause, reason, probing, nanos, changedNanos);
    }
  }

  /** The last {@code threshold} counted failures of one target; thread-safe. */
  private static final class FailureWindow {

    private final long[] times;
    private int next;
    private int size;

    FailureWindow(int threshold) {
      this.times = new long[threshold];
    }

    /** Adds a failure at {@code now}; whether {@code threshold} of them fall within {@code windowNanos}. Resets then. */
    synchronized boolean reached(long now, long windowNanos) {
      times[next] = now;
      next = (next + 1) % times.length;
      size = Math.min(size + 1, times.length);
      if (size == times.length && now - times[next % times.length] <= windowNanos) {
        size = 0;
        return true;
      }
      return false;
    }
  }

  /** Builds a {@link TargetHealth}. */
  public static final class Builder {

    private final Map<String, TargetCooldown> rules = new LinkedHashMap<>();
    private TargetCooldown defaultRule = TargetCooldown.DEFAULT;
    private @Nullable TargetHealthStore store;
    private MonotonicClock clock = MonotonicClock.system();
    private Duration refreshInterval = DEFAULT_REFRESH_INTERVAL;
    private Duration probeLease = DEFAULT_PROBE_LEASE;
    private @Nullable String instanceId;
    private final List<Listener> listeners = new ArrayList<>();

    private Builder() {}

    /** {@code targetId}'s own rule. */
    public Builder cooldown(String targetId, TargetCooldown rule) {
      rules.put(TargetIds.require(targetId), Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** The rule of every target without one of its own; {@link TargetCooldown#DEFAULT} unless set. */
    public Builder defaultCooldown(TargetCooldown rule) {
      this.defaultRule = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /** Where cooldowns are shared; a new {@link InMemoryTargetHealthStore} on this builder's clock unless set. */
    public Builder store(TargetHealthStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** The clock of this view's timings: the runner's clock. {@link MonotonicClock#system()} unless set. */
    public Builder clock(MonotonicClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How often a shared store is read: the bound on how stale another instance's change is here. &gt; 0. */
    public Builder refreshInterval(Duration interval) {
      this.refreshInterval = Durations.positive(interval, "refreshInterval");
      return this;
    }

    /**
     * How long a probe lease lasts by the store's clock if its holder never answers (it died): then another instance
     * may probe. It should cover a probe's attempt. &gt; 0; one minute unless set.
     */
    public Builder probeLease(Duration lease) {
      this.probeLease = Durations.positive(lease, "probeLease");
      return this;
    }

    /** The holder id of this instance's probe leases; the process id and a random suffix unless set. */
    public Builder instanceId(String id) {
      if (id == null || id.isBlank()) {
        throw new IllegalArgumentException("instanceId must not be blank");
      }
      this.instanceId = id;
      return this;
    }

    /** Adds a listener of state changes. */
    public Builder listener(Listener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * The view; with a shared store it reads the store once before returning (a failure is logged and retried at
     * the next refresh) and starts its background thread.
     */
    public TargetHealth build() {
      return new TargetHealth(this);
    }
  }
}
