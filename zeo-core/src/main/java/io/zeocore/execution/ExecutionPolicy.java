package io.zeocore.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One explicit plan of attempts under one total deadline. Immutable; build it with {@link #builder()}.
 *
 * <p>The plan is {@link #attemptTargets()}: at most that many calls are made, in that order, and only to those ids.
 * Repeating an id is how a same-target retry is written. Each attempt gets
 * {@code min(attemptTimeout, what is left of totalTimeout)}. After a failure whose kind is in
 * {@link #retryableFailures()}, the runner waits {@link #backoffAfter(int)} (jittered, with the provider's Retry-After
 * as its floor) before the next planned target, and gives up ({@code EXHAUSTED}) when that wait would use the whole
 * remaining budget.
 *
 * <p>Validation runs in the reference's order — field checks (timeouts, targets, backoff sign, jitter, poll), then the
 * cross-field checks (backoff length, then never-retryable kinds) — and throws {@link InvalidPolicyException} with the
 * reference's messages. Beyond the reference it also rejects nulls, zero or negative durations and NaN jitter.
 *
 * @param operationMode the safety class; {@code EFFECTFUL} is accepted here and refused by the runner
 * @param totalTimeout the whole run's budget, &gt; 0
 * @param attemptTimeout the per-attempt cap, &gt; 0 (may exceed the total; it is clipped)
 * @param attemptTargets the ordered plan, non-empty, every id matching the target-id rule
 * @param backoff delays after attempt 1, 2, …; at most {@code attemptTargets.size() - 1} entries, missing ones are zero
 * @param jitterFraction 0 ≤ f ≤ 1; each delay is multiplied by a factor in {@code [1 - f, 1 + f]}
 * @param retryableFailures kinds after which the next planned target may run; none of {@link FailureKind#NEVER_RETRYABLE}
 * @param allowSimulated whether {@link ExecutionMode#SIMULATED} targets may run
 * @param cancellationPoll the longest slice of a backoff wait between two cancellation checks, &gt; 0
 * @param name how logs, events and metrics call the policy; {@value #UNNAMED} when not given
 * @param deadline how {@link ResilientRunner#runSync} applies the attempt timeout; {@link DeadlineMode#COOPERATIVE}
 *     when not given
 * @param failureKinds the kind of an exception a target throws, by type (subclasses match, the most specific type
 *     wins, the exception before its causes); consulted before the runner's {@link ExceptionClassifier} and never for
 *     an {@link AttemptError}. It chooses kinds, not retryability: {@link #retryableFailures()} still decides, and
 *     {@link FailureKind#CANCELLED} is reserved for the host's cancellation
 * @param maxTokens the run's token budget, or {@code null} for none: before each attempt the runner adds up the tokens
 *     its earlier attempts reported ({@link AttemptContext#reportUsage}); once they reach the budget no further
 *     attempt starts and the run ends {@code EXHAUSTED} with {@link MachineCodes#BUDGET_EXHAUSTED}. A
 *     {@code PolicyChatModel} under a conversation bound applies it across the conversation's model requests too
 * @param firstChunkTimeout for a streamed run ({@link ResilientRunner#runStream}), how long an attempt may wait for its
 *     first chunk, or {@code null} for the attempt timeout; never more than the attempt's own timeout
 * @param chunkIdleTimeout for a streamed run, the longest silence between two chunks once the first was delivered (counted
 *     only while the subscriber has asked for more), or {@code null} for the attempt timeout
 * @param ignoreCooldowns whether this policy's runs call targets that are cooling down ({@link TargetHealth}): for a
 *     probe or health-check policy. Its attempts still count towards cooldowns, and an answer from a cooling target
 *     ends that target's cooldown. {@code false} unless set
 */
public record ExecutionPolicy(
    OperationMode operationMode,
    Duration totalTimeout,
    Duration attemptTimeout,
    List<String> attemptTargets,
    List<Duration> backoff,
    double jitterFraction,
    Set<FailureKind> retryableFailures,
    boolean allowSimulated,
    Duration cancellationPoll,
    String name,
    DeadlineMode deadline,
    Map<Class<? extends Throwable>, FailureKind> failureKinds,
    @Nullable Long maxTokens,
    @Nullable Duration firstChunkTimeout,
    @Nullable Duration chunkIdleTimeout,
    boolean ignoreCooldowns) {

  /** The default {@link #cancellationPoll()}: 100 ms. */
  public static final Duration DEFAULT_CANCELLATION_POLL = Duration.ofMillis(100);

  /** The {@link #name()} of a policy built without one. */
  public static final String UNNAMED = "unnamed";

  /** A policy without a name, with a cooperative deadline and no exception mapping (the original nine fields). */
  @SuppressWarnings("NullAway") // the canonical constructor gives a null name, deadline and mapping their defaults
  public ExecutionPolicy(OperationMode operationMode, Duration totalTimeout, Duration attemptTimeout,
      List<String> attemptTargets, List<Duration> backoff, double jitterFraction, Set<FailureKind> retryableFailures,
      boolean allowSimulated, Duration cancellationPoll) {
    this(operationMode, totalTimeout, attemptTimeout, attemptTargets, backoff, jitterFraction, retryableFailures,
        allowSimulated, cancellationPoll, null, null, null, null, null, null, false);
  }

  /** A policy without stream timeouts (the thirteen fields before streamed runs): both derive from the attempt timeout. */
  public ExecutionPolicy(OperationMode operationMode, Duration totalTimeout, Duration attemptTimeout,
      List<String> attemptTargets, List<Duration> backoff, double jitterFraction, Set<FailureKind> retryableFailures,
      boolean allowSimulated, Duration cancellationPoll, String name, DeadlineMode deadline,
      Map<Class<? extends Throwable>, FailureKind> failureKinds, @Nullable Long maxTokens) {
    this(operationMode, totalTimeout, attemptTimeout, attemptTargets, backoff, jitterFraction, retryableFailures,
        allowSimulated, cancellationPoll, name, deadline, failureKinds, maxTokens, null, null, false);
  }

  /** A policy that honours target cooldowns (the fifteen fields before target health). */
  public ExecutionPolicy(OperationMode operationMode, Duration totalTimeout, Duration attemptTimeout,
      List<String> attemptTargets, List<Duration> backoff, double jitterFraction, Set<FailureKind> retryableFailures,
      boolean allowSimulated, Duration cancellationPoll, String name, DeadlineMode deadline,
      Map<Class<? extends Throwable>, FailureKind> failureKinds, @Nullable Long maxTokens,
      @Nullable Duration firstChunkTimeout, @Nullable Duration chunkIdleTimeout) {
    this(operationMode, totalTimeout, attemptTimeout, attemptTargets, backoff, jitterFraction, retryableFailures,
        allowSimulated, cancellationPoll, name, deadline, failureKinds, maxTokens, firstChunkTimeout, chunkIdleTimeout,
        false);
  }

  public ExecutionPolicy {
    if (operationMode == null) {
      throw new InvalidPolicyException("operationMode", "operation_mode must not be null");
    }
    positive(totalTimeout, "totalTimeout", "total_timeout_seconds");
    positive(attemptTimeout, "attemptTimeout", "attempt_timeout_seconds");
    if (attemptTargets == null || attemptTargets.isEmpty()) {
      throw new InvalidPolicyException("attemptTargets", "attempt_targets must contain at least one target");
    }
    for (String target : attemptTargets) {
      if (!TargetIds.isValid(target)) {
        throw new InvalidPolicyException("attemptTargets", "attempt target IDs must be non-empty safe identifiers");
      }
    }
    attemptTargets = List.copyOf(attemptTargets);
    if (backoff == null) {
      backoff = List.of();
    }
    for (Duration delay : backoff) {
      if (delay == null) {
        throw new InvalidPolicyException("backoff", "backoff_seconds cannot contain null delays");
      }
      if (delay.isNegative()) {
        throw new InvalidPolicyException("backoff", "backoff_seconds cannot contain negative delays");
      }
    }
    backoff = List.copyOf(backoff);
    if (Double.isNaN(jitterFraction) || jitterFraction < 0 || jitterFraction > 1) {
      throw new InvalidPolicyException("jitterFraction", "jitter_fraction must be between 0 and 1");
    }
    if (retryableFailures == null) {
      throw new InvalidPolicyException("retryableFailures", "retryable_failures must not be null");
    }
    if (retryableFailures.stream().anyMatch(java.util.Objects::isNull)) { // contains(null) throws on Set.of sets
      throw new InvalidPolicyException("retryableFailures", "retryable_failures cannot contain null");
    }
    retryableFailures = retryableFailures.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(retryableFailures));
    positive(cancellationPoll, "cancellationPoll", "cancellation_poll_seconds");
    if (name == null) {
      name = UNNAMED;
    } else if (name.isBlank()) {
      throw new InvalidPolicyException("name", "name must not be blank");
    }
    if (deadline == null) {
      deadline = DeadlineMode.COOPERATIVE;
    }
    failureKinds = copyFailureKinds(failureKinds);
    if (maxTokens != null && maxTokens < 1) {
      throw new InvalidPolicyException("maxTokens", "max_tokens must be greater than 0");
    }
    if (firstChunkTimeout != null) {
      positive(firstChunkTimeout, "firstChunkTimeout", "first_chunk_timeout_seconds");
    }
    if (chunkIdleTimeout != null) {
      positive(chunkIdleTimeout, "chunkIdleTimeout", "chunk_idle_timeout_seconds");
    }

    if (backoff.size() > attemptTargets.size() - 1) {
      throw new InvalidPolicyException("backoff",
          "backoff_seconds cannot exceed the number of attempt transitions");
    }
    List<String> forbidden = retryableFailures.stream()
        .filter(FailureKind::isNeverRetryable)
        .map(FailureKind::wireValue)
        .sorted()
        .collect(Collectors.toList());
    if (!forbidden.isEmpty()) {
      throw new InvalidPolicyException("retryableFailures",
          "failures can never be retryable: " + String.join(", ", forbidden));
    }
  }

  private static Map<Class<? extends Throwable>, FailureKind> copyFailureKinds(
      Map<Class<? extends Throwable>, FailureKind> failureKinds) {
    if (failureKinds == null || failureKinds.isEmpty()) {
      return Map.of();
    }
    Map<Class<? extends Throwable>, FailureKind> copy = new LinkedHashMap<>();
    failureKinds.forEach((type, kind) -> {
      if (type == null || kind == null) {
        throw new InvalidPolicyException("failureKinds", "failure_kinds cannot contain null types or kinds");
      }
      if (kind == FailureKind.CANCELLED) {
        throw new InvalidPolicyException("failureKinds",
            "failure_kinds cannot map " + type.getName() + " to cancelled: it is reserved for the host's cancellation");
      }
      copy.put(type, kind);
    });
    return Collections.unmodifiableMap(copy);
  }

  private static void positive(Duration value, String field, String referenceName) {
    if (value == null) {
      throw new InvalidPolicyException(field, referenceName + " must not be null");
    }
    if (value.isZero() || value.isNegative()) {
      throw new InvalidPolicyException(field, referenceName + " must be greater than 0");
    }
  }

  /** The call bound: the plan's length. */
  public int maxAttempts() {
    return attemptTargets.size();
  }

  /** The configured delay after the 1-based attempt {@code attemptNumber}, zero when the plan names none. */
  public Duration backoffAfter(int attemptNumber) {
    if (attemptNumber >= 1 && attemptNumber <= backoff.size()) {
      return backoff.get(attemptNumber - 1);
    }
    return Duration.ZERO;
  }

  /** How long a streamed attempt waits for its first chunk: {@link #firstChunkTimeout()}, else the attempt timeout. */
  public Duration effectiveFirstChunkTimeout() {
    return firstChunkTimeout != null ? firstChunkTimeout : attemptTimeout;
  }

  /** The longest silence between two chunks of a streamed attempt: {@link #chunkIdleTimeout()}, else the attempt timeout. */
  public Duration effectiveChunkIdleTimeout() {
    return chunkIdleTimeout != null ? chunkIdleTimeout : attemptTimeout;
  }

  /** Whether a failure of {@code kind} may be followed by the next planned attempt. */
  public boolean isRetryable(FailureKind kind) {
    return retryableFailures.contains(kind);
  }

  /** A builder starting from this policy. */
  public Builder toBuilder() {
    return new Builder()
        .operationMode(operationMode)
        .totalTimeout(totalTimeout)
        .attemptTimeout(attemptTimeout)
        .attemptTargets(attemptTargets)
        .backoff(backoff)
        .jitterFraction(jitterFraction)
        .retryableFailures(retryableFailures)
        .allowSimulated(allowSimulated)
        .cancellationPoll(cancellationPoll)
        .name(name)
        .deadline(deadline)
        .failureKinds(failureKinds)
        .maxTokens(maxTokens)
        .firstChunkTimeout(firstChunkTimeout)
        .chunkIdleTimeout(chunkIdleTimeout)
        .ignoreCooldowns(ignoreCooldowns);
  }

  /** This policy under another name. */
  public ExecutionPolicy withName(String newName) {
    return new ExecutionPolicy(operationMode, totalTimeout, attemptTimeout, attemptTargets, backoff, jitterFraction,
        retryableFailures, allowSimulated, cancellationPoll, newName, deadline, failureKinds, maxTokens,
        firstChunkTimeout, chunkIdleTimeout, ignoreCooldowns);
  }

  /** A builder with the reference's defaults: read-only, no backoff, no jitter, default retryable kinds. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link ExecutionPolicy}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {

    private OperationMode operationMode = OperationMode.READ_ONLY;
    private @Nullable Duration totalTimeout;
    private @Nullable Duration attemptTimeout;
    private @Nullable List<String> attemptTargets = List.of();
    private @Nullable List<Duration> backoff = List.of();
    private double jitterFraction;
    private @Nullable Set<FailureKind> retryableFailures = FailureKind.DEFAULT_RETRYABLE;
    private boolean allowSimulated;
    private Duration cancellationPoll = DEFAULT_CANCELLATION_POLL;
    private @Nullable String name;
    private @Nullable DeadlineMode deadline = DeadlineMode.COOPERATIVE;
    private @Nullable Map<Class<? extends Throwable>, FailureKind> failureKinds = Map.of();
    private @Nullable Long maxTokens;
    private @Nullable Duration firstChunkTimeout;
    private @Nullable Duration chunkIdleTimeout;
    private boolean ignoreCooldowns;

    private Builder() {}

    public Builder operationMode(OperationMode operationMode) {
      this.operationMode = operationMode;
      return this;
    }

    public Builder totalTimeout(@Nullable Duration totalTimeout) {
      this.totalTimeout = totalTimeout;
      return this;
    }

    public Builder attemptTimeout(@Nullable Duration attemptTimeout) {
      this.attemptTimeout = attemptTimeout;
      return this;
    }

    public Builder attemptTargets(String... attemptTargets) {
      return attemptTargets(Arrays.asList(attemptTargets));
    }

    public Builder attemptTargets(@Nullable Collection<String> attemptTargets) {
      this.attemptTargets = attemptTargets == null ? null : new ArrayList<>(attemptTargets);
      return this;
    }

    public Builder backoff(Duration... backoff) {
      return backoff(Arrays.asList(backoff));
    }

    public Builder backoff(Collection<Duration> backoff) {
      this.backoff = backoff == null ? null : new ArrayList<>(backoff);
      return this;
    }

    public Builder jitterFraction(double jitterFraction) {
      this.jitterFraction = jitterFraction;
      return this;
    }

    public Builder retryableFailures(FailureKind... kinds) {
      return retryableFailures(Arrays.asList(kinds));
    }

    public Builder retryableFailures(Collection<FailureKind> kinds) {
      this.retryableFailures = kinds == null ? null : new HashSet<>(kinds);
      return this;
    }

    public Builder allowSimulated(boolean allowSimulated) {
      this.allowSimulated = allowSimulated;
      return this;
    }

    public Builder cancellationPoll(Duration cancellationPoll) {
      this.cancellationPoll = cancellationPoll;
      return this;
    }

    /** How logs, events and metrics call the policy. Default: {@value ExecutionPolicy#UNNAMED}. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** How {@link ResilientRunner#runSync} applies the attempt timeout. Default: cooperative. */
    public Builder deadline(DeadlineMode deadline) {
      this.deadline = deadline;
      return this;
    }

    /** The kind of each exception type a target may throw; replaces any earlier mapping. Default: none. */
    public Builder failureKinds(Map<Class<? extends Throwable>, FailureKind> failureKinds) {
      this.failureKinds = failureKinds == null ? null : new LinkedHashMap<>(failureKinds);
      return this;
    }

    /** The run's token budget ({@link ExecutionPolicy#maxTokens()}), or {@code null} for none. */
    public Builder maxTokens(@Nullable Long maxTokens) {
      this.maxTokens = maxTokens;
      return this;
    }

    /** A streamed attempt's wait for its first chunk ({@link ExecutionPolicy#firstChunkTimeout()}); {@code null}: the attempt timeout. */
    public Builder firstChunkTimeout(@Nullable Duration firstChunkTimeout) {
      this.firstChunkTimeout = firstChunkTimeout;
      return this;
    }

    /** The longest silence between chunks ({@link ExecutionPolicy#chunkIdleTimeout()}); {@code null}: the attempt timeout. */
    public Builder chunkIdleTimeout(@Nullable Duration chunkIdleTimeout) {
      this.chunkIdleTimeout = chunkIdleTimeout;
      return this;
    }

    /** Whether runs call cooling targets ({@link ExecutionPolicy#ignoreCooldowns()}). Default: {@code false}. */
    public Builder ignoreCooldowns(boolean ignoreCooldowns) {
      this.ignoreCooldowns = ignoreCooldowns;
      return this;
    }

    /** Adds one exception type's kind. */
    public Builder failureKind(Class<? extends Throwable> type, FailureKind kind) {
      Map<Class<? extends Throwable>, FailureKind> copy =
          failureKinds == null ? new LinkedHashMap<>() : new LinkedHashMap<>(failureKinds);
      copy.put(type, kind);
      this.failureKinds = copy;
      return this;
    }

    /**
     * Validates and builds the policy.
     *
     * @throws InvalidPolicyException naming the broken rule
     */
    @SuppressWarnings("NullAway") // the record's constructor refuses every missing field, naming it
    public ExecutionPolicy build() {
      return new ExecutionPolicy(operationMode, totalTimeout, attemptTimeout, attemptTargets, backoff, jitterFraction,
          retryableFailures, allowSimulated, cancellationPoll, name, deadline, failureKinds, maxTokens,
          firstChunkTimeout, chunkIdleTimeout, ignoreCooldowns);
    }
  }
}
