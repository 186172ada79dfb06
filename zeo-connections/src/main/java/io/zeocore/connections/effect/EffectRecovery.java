package io.zeocore.connections.effect;

import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.internal.Timestamps;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.EffectRecoveryStore;
import io.zeocore.connections.store.RecoveryCandidate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes what a crash or an unknown provider outcome left open, without ever dispatching again. It has no
 * {@link EffectDispatcher} at all: it can only inspect (through {@link EffectReconciler}s) and record.
 *
 * <p>One sweep ({@link #recoverOnce()}) takes, across organizations:
 * <ul>
 *   <li>effects at {@code DISPATCH_STARTED} whose dispatch began longer than {@code dispatchStaleAfter} ago <b>by
 *       the database's own clock</b> (the store records when the claim committed by that clock and compares it with
 *       that clock now; this instance's {@link Builder#clock clock} plays no part, so an instance whose clock runs
 *       ahead never presumes a fresh dispatch orphaned): the process that dispatched died, or is still waiting on a
 *       provider far longer than it should. They are recorded {@code AMBIGUOUS} with their receipt, then reconciled
 *       once;
 *   <li>effects at {@code AMBIGUOUS}: reconciled again once their backoff has passed. The backoff doubles with
 *       every unresolved attempt receipt, from {@code initialBackoff} up to {@code maxBackoff}, and is computed from
 *       the stored receipts, so it survives restarts.
 * </ul>
 * The reconciler is looked up per operation ({@link EffectReconcilers}); the reconciliation request carries no body
 * (bodies are never persisted). {@code CONFIRMED}/{@code FAILED_SAFE} resolve the ambiguity with a receipt pointing
 * at it; anything else (no reconciler, a missing connection or revision, an exception, {@code UNRESOLVED}) appends an
 * attempt receipt. Every change is a compare-and-set, so recovery in several processes, or recovery racing the
 * original orchestrator, never records two outcomes. Before reconciling, a sweeper takes the effect's <b>recovery
 * lease</b> ({@link EffectRecoveryStore#claimRecoveryLease}, by the database's clock, default
 * {@link #DEFAULT_LEASE}) and reads the effect again; an effect leased by another sweeper, or moved on since the
 * candidates were read, is skipped ({@link Sweep#leasedElsewhere()}), so several sweepers call a reconciler once per
 * effect and attempt, not once each. A failure on one effect is logged and the sweep goes on.
 *
 * <p><b>What remains:</b> a provider call that outlives {@code dispatchStaleAfter} is presumed orphaned while it is
 * still in flight. The effect is then recorded {@code AMBIGUOUS} and reconciled; if the reconciler answers before
 * the provider has acted, it may resolve {@code FAILED_SAFE} an effect that then happens, and the dispatcher's own
 * late result is refused by the compare-and-set (the record keeps the reconciler's answer). Choose
 * {@code dispatchStaleAfter} longer than any provider call can take (time out provider calls well inside it), and
 * write reconcilers that answer {@code UNRESOLVED} rather than {@code FAILED_SAFE} while the provider may still act.
 * The backoff of {@code AMBIGUOUS} effects is computed from receipt instants and this instance's clock; a skewed
 * clock only shifts when a reconciler is asked again, never whether an effect is dispatched.
 *
 * <p>{@link #start(Duration)} runs a sweep at once (start-up) and then at a fixed interval on one daemon thread;
 * {@link #close()} stops it. Thread-safe.
 */
public final class EffectRecovery implements AutoCloseable {

  /** Default age after which a {@code DISPATCH_STARTED} execution is presumed orphaned. */
  public static final Duration DEFAULT_DISPATCH_STALE_AFTER = Duration.ofMinutes(5);
  /** Default wait before re-reconciling an ambiguity after its first unresolved attempt. */
  public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(30);
  /** Default cap of the doubling backoff. */
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofHours(1);
  /** Default recovery lease: how long one sweeper may reconcile an execution before another may take over. */
  public static final Duration DEFAULT_LEASE = Duration.ofMinutes(5);
  /** Default number of executions examined per sweep. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private static final Logger LOG = LoggerFactory.getLogger(EffectRecovery.class);

  /**
   * What one sweep did.
   *
   * @param examined candidates looked at
   * @param markedAmbiguous stale {@code DISPATCH_STARTED} effects recorded {@code AMBIGUOUS}
   * @param succeeded ambiguities resolved {@code SUCCEEDED}
   * @param failedSafe ambiguities resolved {@code FAILED_SAFE}
   * @param stillAmbiguous attempts that left the effect {@code AMBIGUOUS}
   * @param notDue ambiguities whose backoff had not passed
   * @param failures effects skipped because of an error (logged)
   * @param leasedElsewhere effects skipped because another sweeper held their recovery lease or had just finished
   *     them
   */
  public record Sweep(int examined, int markedAmbiguous, int succeeded, int failedSafe, int stillAmbiguous,
      int notDue, int failures, int leasedElsewhere) {

    /** A sweep in which no other sweeper held a lease. */
    public Sweep(int examined, int markedAmbiguous, int succeeded, int failedSafe, int stillAmbiguous, int notDue,
        int failures) {
      this(examined, markedAmbiguous, succeeded, failedSafe, stillAmbiguous, notDue, failures, 0);
    }
  }

  private final EffectRecoveryStore store;
  private final Listeners listeners;
  private final EffectReconcilers reconcilers;
  private final InstantSource clock;
  private final Timestamps timestamps;
  private final EffectOutcomes outcomes;
  private final Duration dispatchStaleAfter;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final int batchSize;
  private final Duration lease;
  private final String holder = "zeocore-recovery-" + UUID.randomUUID();
  private final Object schedulerLock = new Object();
  private @Nullable ScheduledExecutorService scheduler;

  private EffectRecovery(Builder builder) {
    this.store = builder.store;
    this.reconcilers = builder.reconcilers;
    this.clock = builder.clock;
    this.timestamps = new Timestamps(builder.clock);
    this.listeners = new Listeners(builder.listeners);
    this.outcomes = new EffectOutcomes(store, timestamps, listeners);
    this.dispatchStaleAfter = builder.dispatchStaleAfter;
    this.initialBackoff = builder.initialBackoff;
    this.maxBackoff = builder.maxBackoff;
    this.batchSize = builder.batchSize;
    this.lease = builder.lease;
  }

  public static Builder builder(EffectRecoveryStore store, EffectReconcilers reconcilers) {
    return new Builder(store, reconcilers);
  }

  /** Configures an {@link EffectRecovery}. */
  public static final class Builder {

    private final EffectRecoveryStore store;
    private final EffectReconcilers reconcilers;
    private InstantSource clock = Clock.systemUTC();
    private Duration dispatchStaleAfter = DEFAULT_DISPATCH_STALE_AFTER;
    private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
    private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private Duration lease = DEFAULT_LEASE;
    private final List<EffectListener> listeners = new ArrayList<>();

    private Builder(EffectRecoveryStore store, EffectReconcilers reconcilers) {
      this.store = Objects.requireNonNull(store, "store");
      this.reconcilers = Objects.requireNonNull(reconcilers, "reconcilers");
    }

    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How long a dispatch may be in flight before it is presumed orphaned (default 5 minutes). Choose it longer than
     * any provider call can take: a live dispatch older than this is recorded {@code AMBIGUOUS} and its own result is
     * then only accepted if it arrives before a reconciliation resolves it.
     */
    public Builder dispatchStaleAfter(Duration age) {
      this.dispatchStaleAfter = positive(age, "dispatchStaleAfter");
      return this;
    }

    /** Wait after the first unresolved attempt (default 30 s); doubles per attempt up to {@link #maxBackoff}. */
    public Builder initialBackoff(Duration backoff) {
      this.initialBackoff = positive(backoff, "initialBackoff");
      return this;
    }

    /** Cap of the backoff (default 1 hour). */
    public Builder maxBackoff(Duration backoff) {
      this.maxBackoff = positive(backoff, "maxBackoff");
      return this;
    }

    /**
     * How long this sweeper holds an effect's recovery lease, by the database's clock (default 5 minutes). Longer
     * than any reconciler call: a sweeper that dies mid-reconciliation delays that effect by at most this long.
     */
    public Builder lease(Duration lease) {
      this.lease = positive(lease, "lease");
      return this;
    }

    /** Executions examined per sweep (default 100). */
    public Builder batchSize(int batchSize) {
      if (batchSize <= 0) {
        throw new IllegalArgumentException("batchSize must be positive");
      }
      this.batchSize = batchSize;
      return this;
    }

    /** Adds a listener told about every committed transition and receipt. */
    public Builder listener(EffectListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    public EffectRecovery build() {
      if (maxBackoff.compareTo(initialBackoff) < 0) {
        throw new IllegalArgumentException("maxBackoff must not be shorter than initialBackoff");
      }
      return new EffectRecovery(this);
    }

    private static Duration positive(Duration value, String name) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive");
      }
      return value;
    }
  }

  /**
   * Runs one sweep now, on the calling thread.
   *
   * @throws ConnectionStoreException if the candidates cannot be read (a failure on one effect is counted, not
   *     thrown)
   */
  public Sweep recoverOnce() {
    Instant now = clock.instant();
    List<RecoveryCandidate> candidates = store.findRecoveryCandidates(dispatchStaleAfter, batchSize);
    int marked = 0;
    int succeeded = 0;
    int failedSafe = 0;
    int stillAmbiguous = 0;
    int notDue = 0;
    int failures = 0;
    int leasedElsewhere = 0;
    for (RecoveryCandidate listed : candidates) {
      EffectRecord effect = listed.effect();
      boolean leased = false;
      try {
        if (effect.state() == EffectState.AMBIGUOUS && !due(listed, now)) {
          notDue++;
          continue;
        }
        if (!store.claimRecoveryLease(effect.organizationId(), effect.effectId(), holder, lease)) {
          leasedElsewhere++;
          continue;
        }
        leased = true;
        // read again under the lease: another sweeper may have finished it between our read and our lease
        RecoveryCandidate candidate = current(listed);
        if (candidate == null) {
          leasedElsewhere++;
          continue;
        }
        if (candidate.effect().state() == EffectState.AMBIGUOUS && !due(candidate, now)) {
          notDue++;
          continue;
        }
        Outcome outcome = recover(candidate);
        marked += outcome.markedAmbiguous ? 1 : 0;
        if (outcome.state == EffectState.SUCCEEDED) {
          succeeded++;
        } else if (outcome.state == EffectState.FAILED_SAFE) {
          failedSafe++;
        } else if (outcome.state == EffectState.AMBIGUOUS) {
          stillAmbiguous++;
        }
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("recovering execution {} of organization {} failed: {}", effect.effectId(),
            effect.organizationId(), describe(e));
      } finally {
        if (leased) {
          release(effect);
        }
      }
    }
    Sweep sweep = new Sweep(candidates.size(), marked, succeeded, failedSafe, stillAmbiguous, notDue, failures,
        leasedElsewhere);
    listeners.sweep(sweep);
    return sweep;
  }

  /**
   * The listed candidate as stored now, or {@code null} when it is no longer one (another sweeper or the dispatching
   * process moved it on): same state required; for {@code AMBIGUOUS}, attempts and last receipt are counted again.
   */
  private @Nullable RecoveryCandidate current(RecoveryCandidate listed) {
    EffectRecord listedEffect = listed.effect();
    EffectRecord stored = store.getEffect(listedEffect.organizationId(), listedEffect.effectId())
        .orElse(null);
    if (stored == null || stored.state() != listedEffect.state()) {
      return null;
    }
    if (stored.state() != EffectState.AMBIGUOUS) {
      return new RecoveryCandidate(stored, listed.reconciliationAttempts(), listed.lastReceiptAt());
    }
    int attempts = 0;
    Instant last = null;
    for (EffectReceipt receipt : store.getReceiptsForEffect(stored.organizationId(), stored.effectId())) {
      attempts += receipt.reconciliationAttemptEvidence() != null ? 1 : 0;
      last = last == null || receipt.recordedAt().isAfter(last) ? receipt.recordedAt() : last;
    }
    return new RecoveryCandidate(stored, attempts, last);
  }

  private void release(EffectRecord effect) {
    try {
      store.releaseRecoveryLease(effect.organizationId(), effect.effectId(), holder);
    } catch (RuntimeException e) {
      // the lease expires by itself
      LOG.warn("releasing the recovery lease of execution {} failed: {}", effect.effectId(),
          e.getClass().getName());
    }
  }

  private boolean due(RecoveryCandidate candidate, Instant now) {
    if (candidate.reconciliationAttempts() == 0 || candidate.lastReceiptAt() == null) {
      return true;
    }
    return !now.isBefore(candidate.lastReceiptAt().plus(backoff(candidate.reconciliationAttempts())));
  }

  /** The wait after {@code attempts} unresolved attempts: initial × 2^(attempts − 1), capped. */
  Duration backoff(int attempts) {
    Duration backoff = initialBackoff;
    for (int i = 1; i < attempts && backoff.compareTo(maxBackoff) < 0; i++) {
      backoff = backoff.multipliedBy(2);
    }
    return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
  }

  private record Outcome(@Nullable EffectState state, boolean markedAmbiguous) {}

  private Outcome recover(RecoveryCandidate candidate) {
    EffectRecord effect = candidate.effect();
    OrganizationId organizationId = effect.organizationId();
    EffectOutcomes.Ambiguity ambiguity;
    Instant lastReceiptAt = candidate.lastReceiptAt();
    boolean marked = false;
    if (effect.state() == EffectState.DISPATCH_STARTED) {
      ambiguity = outcomes.recordAmbiguity(organizationId, effect);
      if (ambiguity == null) {
        return new Outcome(null, false); // the dispatching process finished first
      }
      marked = true;
      lastReceiptAt = ambiguity.recordedAt();
    } else {
      ambiguity = storedAmbiguity(organizationId, effect);
      if (ambiguity == null) {
        throw new ConnectionStoreException("ambiguous execution has no ambiguity receipt");
      }
    }
    EffectReconciliationRequest request = null;
    EffectReconciler reconciler = null;
    Optional<Connection> connection = store.getConnection(organizationId, effect.connectionId());
    Optional<ConnectorRevision> revision = store.getConnectorRevision(organizationId, effect.connectorRevision());
    if (connection.isPresent() && revision.isPresent()) {
      Optional<BusinessOperation> operation = revision.get().findOperation(effect.operationId());
      if (operation.isPresent()) {
        reconciler = reconcilers.find(connection.get(), revision.get(), operation.get()).orElse(null);
        request = new EffectReconciliationRequest(organizationId, connection.get(), revision.get(),
            effect.operationId(), effect.effectId(), effect.idempotencyKey(), effect.requestDigest(),
            ambiguity.dispatchStartedAt(), null);
      }
    }
    if (reconciler == null) {
      LOG.warn("no reconciler for execution {} (operation {}); recording an unresolved attempt",
          effect.effectId(), effect.operationId());
    }
    EffectResult result = outcomes.reconcile(organizationId, ambiguity, lastReceiptAt, reconciler, request);
    return new Outcome(result.state(), marked);
  }

  private EffectOutcomes.@Nullable Ambiguity storedAmbiguity(OrganizationId organizationId, EffectRecord ambiguous) {
    for (EffectReceipt receipt : store.getReceiptsForEffect(organizationId, ambiguous.effectId())) {
      if (receipt.finalState() == EffectState.AMBIGUOUS && receipt.reconciliationAttemptEvidence() == null) {
        Instant dispatchStartedAt = receipt.dispatchStartedAt() != null ? receipt.dispatchStartedAt()
            : ambiguous.updatedAt();
        return new EffectOutcomes.Ambiguity(ambiguous, receipt.recordedAt(), dispatchStartedAt);
      }
    }
    return null;
  }

  /**
   * Runs {@link #recoverOnce()} now and then every {@code interval} on one daemon thread, until {@link #close()}.
   *
   * @throws IllegalStateException if already started
   */
  public void start(Duration interval) {
    Builder.positive(interval, "interval");
    synchronized (schedulerLock) {
      if (scheduler != null) {
        throw new IllegalStateException("effect recovery is already started");
      }
      scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "zeocore-effect-recovery");
        thread.setDaemon(true);
        return thread;
      });
      scheduler.scheduleWithFixedDelay(this::sweepQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void sweepQuietly() {
    try {
      Sweep sweep = recoverOnce();
      if (sweep.examined() > 0) {
        LOG.info("effect recovery sweep: {}", sweep);
      }
    } catch (RuntimeException e) {
      LOG.warn("effect recovery sweep failed: {}", describe(e));
    }
  }

  /**
   * How a failure is named in recovery's log lines: the exception's class name and, for a
   * {@link ConnectionStoreException} only, {@code ": "} and its message; no other exception's message is logged.
   */
  private static String describe(RuntimeException failure) {
    return failure.getClass().getName()
        + (failure instanceof ConnectionStoreException ? ": " + failure.getMessage() : "");
  }

  /** Stops the interval sweeps started by {@link #start(Duration)} (a running sweep finishes). Idempotent. */
  @Override
  public void close() {
    ScheduledExecutorService running;
    synchronized (schedulerLock) {
      running = scheduler;
      scheduler = null;
    }
    if (running != null) {
      running.shutdown();
      try {
        running.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The reconciler registry in use. */
  public EffectReconcilers reconcilers() {
    return reconcilers;
  }
}
