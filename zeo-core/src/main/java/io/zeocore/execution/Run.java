package io.zeocore.execution;

import io.zeocore.internal.SaturatingDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine shared by the sync and async drivers: the reference's gates, preflight, timeout derivation, delay
 * decision and terminal-outcome matrix. One instance per run; used by one thread at a time (the async driver hands
 * it from thread to thread only through future completions and scheduler submissions, which order the accesses).
 */
final class Run<T, X extends ExecutionTarget<?>> {

  private static final Logger log = LoggerFactory.getLogger(ResilientRunner.class);

  final ExecutionPolicy policy;
  final Map<String, X> targets;
  final CancellationToken token;
  /** The run's id: in its result, its listeners' events and observations, the MDC. */
  final String executionId;
  private final MonotonicClock clock;
  private final JitterSource jitter;
  private final ExceptionClassifier classifier;
  private final List<AttemptListener> listeners;
  private final long totalNanos;
  private final long attemptNanos;
  private final List<AttemptRecord> attempts;
  private final @Nullable TargetHealth health;
  /**
   * What the target health decided for the attempt now running (whether it is its target's probe): kept here, not in
   * {@link Proceed}, which fits its 24 bytes without it; attempts of one run are sequential.
   */
  private TargetHealth.Admission admission = TargetHealth.Admission.CALL;
  private long start;

  Run(ExecutionPolicy policy, Map<String, X> targets, CancellationToken token, String executionId,
      MonotonicClock clock, JitterSource jitter, ExceptionClassifier classifier, List<AttemptListener> listeners,
      @Nullable TargetHealth health) {
    this.policy = policy;
    this.targets = targets;
    this.token = token;
    this.executionId = executionId;
    this.clock = clock;
    this.jitter = jitter;
    this.classifier = classifier;
    this.listeners = listeners;
    this.totalNanos = SaturatingDurations.toNanos(policy.totalTimeout());
    this.attemptNanos = SaturatingDurations.toNanos(policy.attemptTimeout());
    this.attempts = new ArrayList<>(Math.min(policy.maxAttempts(), 10));
    this.health = health;
  }

  /** A refusal before any call: its machine code and the planned target it is about, or {@code null}. */
  record Refusal(String machineCode, @Nullable String targetId) {}

  /**
   * The refusals before a run starts: an effectful policy first, then, for each planned target id in plan order, a
   * missing target (or one whose id differs) and a target that retries internally. The clock is not read and no
   * target is called.
   *
   * @return the refusal, or {@code null} when the run may start
   */
  static @Nullable Refusal refusal(ExecutionPolicy policy, Map<String, ? extends ExecutionTarget<?>> targets) {
    if (policy.operationMode() == OperationMode.EFFECTFUL) {
      return new Refusal(MachineCodes.EFFECTFUL_REQUIRES_PERSISTENCE, null);
    }
    for (String targetId : policy.attemptTargets()) {
      ExecutionTarget<?> target = targets.get(targetId);
      if (target == null || !target.targetId().equals(targetId)) {
        return new Refusal(MachineCodes.TARGET_UNAVAILABLE, targetId);
      }
      if (target.internalMaxAttempts() != 1) {
        return new Refusal(MachineCodes.NESTED_RETRIES, targetId);
      }
      if (target.executionMode() == ExecutionMode.SIMULATED && !policy.allowSimulated()) {
        return new Refusal(MachineCodes.SIMULATION_NOT_ALLOWED, targetId);
      }
    }
    Class<?> responseType = planned(targets, policy.attemptTargets().get(0)).responseType();
    for (String targetId : policy.attemptTargets()) {
      if (planned(targets, targetId).responseType() != responseType) {
        return new Refusal(MachineCodes.RESPONSE_CONTRACT_MISMATCH, null);
      }
    }
    return null;
  }

  /** Ends the run refused before any call; logged at WARN with the code and the target id (configuration only). */
  ResilientExecutionResult<T> refused(Refusal refusal) {
    if (refusal.targetId() != null) {
      log.warn("ZeoCore policy '{}' refused before any call: {} for planned target '{}'", policy.name(),
          refusal.machineCode(), refusal.targetId());
    } else {
      log.warn("ZeoCore policy '{}' refused before any call: {}", policy.name(), refusal.machineCode());
    }
    return finish(ResilientExecutionResult.refused(refusal.machineCode(), refusal.targetId(), executionId));
  }

  /** Classifies what the target of the current attempt threw; see {@link Failure#classify}. */
  Failure classify(Throwable thrown, BooleanSupplier hostCancelled) {
    return Failure.classify(thrown, policy, classifier, hostCancelled);
  }

  /** Reads the start instant (the run's time origin). */
  void start() {
    start = clock.nanoTime();
  }

  long elapsedNanos() {
    return Math.max(0, clock.nanoTime() - start);
  }

  ResilientExecutionResult<T> cancelled(long elapsedNanos) {
    return finish(ResilientExecutionResult.terminal(ExecutionOutcome.CANCELLED, attempts, null,
        MachineCodes.CANCELLED, SaturatingDurations.ofNanosAtLeastZero(elapsedNanos), executionId));
  }

  /** The planned target {@code targetId}: once the run is admitted, every planned id has one. */
  X target(String targetId) {
    return planned(targets, targetId);
  }

  /** {@code targetId}'s target, which the checks before it found. */
  private static <E> E planned(Map<String, E> targets, String targetId) {
    return Objects.requireNonNull(targets.get(targetId), targetId);
  }

  /** The tokens the run's attempts reported so far. */
  private long tokensSpent() {
    long spent = 0;
    for (AttemptRecord record : attempts) {
      spent += record.tokens();
    }
    return spent;
  }

  /** What an attempt position decided before calling its target. */
  sealed interface Gate<T> permits Stop, Proceed {}

  record Stop<T>(ResilientExecutionResult<T> result) implements Gate<T> {}

  record Proceed<T>(AttemptContext context, long startedNanos) implements Gate<T> {}

  /**
   * Everything that happens before attempt number {@code n}: budget gate, cancellation gate, preflight, the target's
   * cooldown, the effective timeout and the attempt context. A cooling target's position is recorded as skipped and
   * the gates run again for the next position at once; the returned attempt's number says where the plan is.
   */
  Gate<T> beforeAttempt(int first, BooleanSupplier cancelled) {
    for (int n = first; ; n++) {
      Gate<T> gate = gate(n, cancelled);
      if (gate != null) {
        return gate;
      }
    }
  }

  /** The gates of position {@code n}; {@code null} when its target is cooling and the next position is to run. */
  private @Nullable Gate<T> gate(int n, BooleanSupplier cancelled) {
    long elapsed = elapsedNanos();
    long remaining = totalNanos - elapsed;
    if (remaining <= 0) {
      AttemptRecord last = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
      FailureKind kind = last == null || last.failureKind() == null ? FailureKind.TIMEOUT : last.failureKind();
      return new Stop<>(finish(ResilientExecutionResult.terminal(ExecutionOutcome.EXHAUSTED, attempts, kind,
          last == null || last.machineCode() == null ? kind.machineCode() : last.machineCode(),
          Duration.ofNanos(elapsed), executionId)));
    }
    if (cancelled.getAsBoolean()) {
      return new Stop<>(cancelled(elapsed));
    }
    if (policy.maxTokens() != null && tokensSpent() >= policy.maxTokens()) {
      return new Stop<>(finish(ResilientExecutionResult.terminal(ExecutionOutcome.EXHAUSTED, attempts, null,
          MachineCodes.BUDGET_EXHAUSTED, Duration.ofNanos(elapsed), executionId)));
    }
    String targetId = policy.attemptTargets().get(n - 1);
    FailureKind preflight = target(targetId).preflightFailure();
    if (preflight != null) {
      return new Stop<>(finish(ResilientExecutionResult.terminal(nonRetryableOutcome(preflight), attempts, preflight,
          preflight.machineCode(), Duration.ofNanos(elapsed), executionId)));
    }
    TargetHealth.Admission decided = TargetHealth.Admission.CALL;
    if (health != null) {
      decided = health.admit(targetId, policy.ignoreCooldowns());
      if (decided.skips()) {
        Duration at = Duration.ofNanos(elapsed);
        record(new AttemptRecord(n, targetId, target(targetId).executionMode(), at, at, Duration.ZERO, false,
            AttemptOutcome.SKIPPED, decided.cause(), MachineCodes.TARGET_COOLING, Duration.ZERO, null, null));
        if (n >= policy.maxAttempts()) {
          return new Stop<>(finish(ResilientExecutionResult.terminal(ExecutionOutcome.EXHAUSTED, attempts,
              decided.cause(), MachineCodes.TARGET_COOLING, Duration.ofNanos(elapsed), executionId)));
        }
        return null;
      }
    }
    long timeout = Math.min(attemptNanos, remaining);
    long started = elapsed; // the gate's reading: one clock read per attempt instead of two
    // the policy's own Duration when the budget does not clip the attempt: one allocation less per attempt
    AttemptContext context = new AttemptContext(n, targetId,
        timeout == attemptNanos ? policy.attemptTimeout() : Duration.ofNanos(timeout), Duration.ofNanos(remaining),
        token);
    for (AttemptListener listener : listeners) {
      try {
        listener.attemptStarted(policy, context);
      } catch (RuntimeException listenerFailure) {
        listenerThrew(listener, listenerFailure, "; the run continues");
      }
    }
    this.admission = decided;
    return new Proceed<>(context, started);
  }

  /** A target's call: {@code invoke} of a sync or async invocation. */
  @FunctionalInterface
  interface TargetCall<R> {
    R call(AttemptContext context) throws Exception;
  }

  /**
   * Calls the target with its attempt {@link CurrentAttempt current} on this thread and inside every listener's
   * {@link AttemptListener#targetScope}, opened in listener order on this thread and closed in reverse when the call
   * returns or throws.
   */
  <R> R callScoped(AttemptContext context, TargetCall<R> call) throws Exception {
    try (AttemptListener.TargetScope current = CurrentAttempt.enter(context)) {
      return callInListenerScopes(context, call);
    }
  }

  private <R> R callInListenerScopes(AttemptContext context, TargetCall<R> call) throws Exception {
    if (listeners.isEmpty()) {
      return call.call(context);
    }
    AttemptListener.TargetScope[] scopes = new AttemptListener.TargetScope[listeners.size()];
    for (int i = 0; i < scopes.length; i++) {
      AttemptListener listener = listeners.get(i);
      try {
        scopes[i] = listener.targetScope(policy, context);
      } catch (RuntimeException listenerFailure) {
        listenerThrew(listener, listenerFailure, " opening its scope; the call happens without it");
      }
    }
    try {
      return call.call(context);
    } finally {
      for (int i = scopes.length - 1; i >= 0; i--) {
        if (scopes[i] != null) {
          try {
            scopes[i].close();
          } catch (RuntimeException listenerFailure) {
            listenerThrew(listeners.get(i), listenerFailure, " closing its scope; the run continues");
          }
        }
      }
    }
  }

  /** A successful attempt; {@code stream} is what a streamed attempt delivered, {@code null} for any other. */
  ResilientExecutionResult<T> succeeded(Proceed<T> attempt, T value, @Nullable StreamEvidence stream) {
    long ended = Math.max(attempt.startedNanos(), elapsedNanos());
    X target = target(attempt.context().targetId());
    record(new AttemptRecord(attempt.context().attemptNumber(), target.targetId(), target.executionMode(),
        Duration.ofNanos(attempt.startedNanos()), Duration.ofNanos(ended), attempt.context().timeout(), true,
        AttemptOutcome.SUCCEEDED, null, null, Duration.ZERO, attempt.context().usage(), stream));
    if (health != null) {
      health.answered(target.targetId(), admission, policy.ignoreCooldowns());
    }
    return finish(new ResilientExecutionResult<>(ExecutionOutcome.SUCCEEDED, value, attempts, target.targetId(),
        target.executionMode(), null, null, Duration.ofNanos(ended), null, executionId));
  }

  /** The outcome of a failed attempt: either the run ends, or the next position runs after {@code delayNanos}. */
  record AfterFailure<T>(@Nullable ResilientExecutionResult<T> result, long delayNanos) {}

  /**
   * After a failed attempt: record it, decide the delay, apply post-failure cancellation.
   *
   * @param cancelled whether cancellation is observed right after the failure
   * @param stream what a streamed attempt delivered (nothing, since it failed before a chunk), {@code null} for others
   */
  AfterFailure<T> failed(Proceed<T> attempt, Failure failure, BooleanSupplier cancelled,
      @Nullable StreamEvidence stream) {
    long ended = Math.max(attempt.startedNanos(), elapsedNanos());
    int n = attempt.context().attemptNumber();
    long delay = delayAfter(n, failure, totalNanos - ended);
    X target = target(attempt.context().targetId());
    record(new AttemptRecord(n, target.targetId(), target.executionMode(), Duration.ofNanos(attempt.startedNanos()),
        Duration.ofNanos(ended), attempt.context().timeout(), failure.dispatchStarted(), AttemptOutcome.FAILED,
        failure.kind(), failure.machineCode(), Duration.ofNanos(Math.max(delay, 0)),
        attempt.context().usage(), stream));
    observeFailure(attempt, failure);
    if (log.isDebugEnabled()) {
      log.debug("ZeoCore policy '{}' attempt {} on target '{}' failed: {} (dispatch started: {}, thrown: {})",
          policy.name(), n, target.targetId(), failure.kind().wireValue(), failure.dispatchStarted(),
          failure.thrownType() != null ? failure.thrownType().getName() : "nothing");
    }
    if (failure.kind() == FailureKind.CANCELLED || cancelled.getAsBoolean()) {
      return new AfterFailure<>(cancelled(ended), -1);
    }
    if (delay < 0) {
      ExecutionOutcome outcome = policy.isRetryable(failure.kind())
          ? ExecutionOutcome.EXHAUSTED : nonRetryableOutcome(failure.kind());
      return new AfterFailure<>(finish(ResilientExecutionResult.terminal(outcome, attempts, failure.kind(),
          failure.machineCode(), Duration.ofNanos(ended), executionId)), -1);
    }
    return new AfterFailure<>(null, delay);
  }

  /**
   * A streamed attempt that failed after its first chunk was delivered: recorded with what it delivered, and the run
   * ends at once, whatever the plan still holds. {@code CANCELLED} when the subscriber or the host cancelled, else
   * {@code FAILED_SAFE} with {@link MachineCodes#STREAM_INTERRUPTED} and the attempt's own failure kind.
   */
  ResilientExecutionResult<T> interrupted(Proceed<T> attempt, Failure failure, StreamEvidence delivered) {
    long ended = Math.max(attempt.startedNanos(), elapsedNanos());
    X target = target(attempt.context().targetId());
    record(new AttemptRecord(attempt.context().attemptNumber(), target.targetId(), target.executionMode(),
        Duration.ofNanos(attempt.startedNanos()), Duration.ofNanos(ended), attempt.context().timeout(), true,
        AttemptOutcome.FAILED, failure.kind(), failure.machineCode(), Duration.ZERO, attempt.context().usage(),
        delivered));
    observeFailure(attempt, failure);
    if (failure.kind() == FailureKind.CANCELLED) {
      return cancelled(ended);
    }
    return finish(ResilientExecutionResult.terminal(ExecutionOutcome.FAILED_SAFE, attempts, failure.kind(),
        MachineCodes.STREAM_INTERRUPTED, Duration.ofNanos(ended), executionId));
  }

  /**
   * Tells the target health of a failed attempt. A failure with its own code says nothing about its target and is not
   * counted: an enforced attempt that was never started ({@link MachineCodes#NOT_STARTED}) or a failure fault injection
   * made up ({@link MachineCodes#FAULT_INJECTED}); as a probe it only gives the lease back.
   */
  private void observeFailure(Proceed<T> attempt, Failure failure) {
    if (health != null && (failure.ownCode() == null || admission.probe)) {
      health.failed(attempt.context().targetId(), admission,
          failure.ownCode() == null ? failure.kind() : FailureKind.CANCELLED, failure.retryAfter(),
          policy.ignoreCooldowns());
    }
  }

  /**
   * The delay decision: no retry ({@code -1}) when the kind is not retryable, the plan is spent, or the delay would
   * use the whole remaining budget. Jitter applies to the configured backoff; the provider's Retry-After is then the
   * floor (the reference jittered after the maximum and could cut a server's Retry-After short), unless it cools the
   * target and the plan moves to another one ({@link #coolsInstead}).
   */
  private long delayAfter(int n, Failure failure, long remainingAfter) {
    if (!policy.isRetryable(failure.kind()) || n >= policy.maxAttempts()) {
      return -1;
    }
    long delay = SaturatingDurations.toNanos(policy.backoffAfter(n));
    if (policy.jitterFraction() != 0) {
      double u = Math.min(1.0, Math.max(0.0, jitter.next()));
      if (Double.isNaN(u)) {
        u = 0.5;
      }
      double factor = 1 + policy.jitterFraction() * (2 * u - 1);
      delay = (long) Math.min(Long.MAX_VALUE, Math.round(delay * factor));
    }
    if (failure.retryAfter() != null && !coolsInstead(n, failure)) {
      delay = Math.max(delay, SaturatingDurations.toNanos(failure.retryAfter()));
    }
    return delay >= remainingAfter ? -1 : delay;
  }

  /**
   * Whether attempt {@code n}'s Retry-After cools its target instead of delaying the run: with target health whose
   * rule honours it, the next planned target is another one, and this policy honours cooldowns. The provider is then
   * kept from calls by the cooldown (every run skips it), so the fallback need not wait.
   */
  private boolean coolsInstead(int n, Failure failure) {
    if (health == null || policy.ignoreCooldowns() || failure.ownCode() != null) {
      return false; // an injected or never-started failure cools nothing
    }
    String failed = policy.attemptTargets().get(n - 1);
    return !failed.equals(policy.attemptTargets().get(n))
        && health.cooldown(failed).retryAfterCooldown(failure.kind(), failure.retryAfter()) != null;
  }

  private static ExecutionOutcome nonRetryableOutcome(FailureKind kind) {
    return kind == FailureKind.VALIDATION || kind == FailureKind.AUTHORIZATION
        ? ExecutionOutcome.REFUSED : ExecutionOutcome.FAILED_SAFE;
  }

  private void record(AttemptRecord record) {
    attempts.add(record);
    for (AttemptListener listener : listeners) {
      try {
        listener.attemptFinished(policy, record);
      } catch (RuntimeException listenerFailure) {
        listenerThrew(listener, listenerFailure, "; the run continues");
      }
    }
  }

  private ResilientExecutionResult<T> finish(ResilientExecutionResult<T> result) {
    for (AttemptListener listener : listeners) {
      try {
        listener.runFinished(policy, result);
      } catch (RuntimeException listenerFailure) {
        listenerThrew(listener, listenerFailure, "; the result stands");
      }
    }
    return result;
  }

  /**
   * Logs, at WARN, that {@code listener} threw {@code failure} and what happens instead ({@code consequence}, appended
   * to the line as it is). Only the two class names are logged, never the exception's text, which may carry data of
   * the call. The caller has already swallowed the failure; a listener never changes a run's course.
   */
  private static void listenerThrew(AttemptListener listener, RuntimeException failure, String consequence) {
    log.warn("AttemptListener {} threw {}{}", listener.getClass().getName(), failure.getClass().getName(), consequence);
  }

  /** The elapsed time now, for results ended by a cancelled backoff. */
  ResilientExecutionResult<T> cancelledNow() {
    return cancelled(elapsedNanos());
  }

  long pollNanos() {
    return SaturatingDurations.toNanos(policy.cancellationPoll());
  }

  long nowNanos() {
    return clock.nanoTime();
  }
}
