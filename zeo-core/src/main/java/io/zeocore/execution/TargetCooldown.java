package io.zeocore.execution;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * When one target stops receiving calls for a while: {@link TargetHealth} applies a rule per target id.
 *
 * <ul>
 *   <li><b>Retry-After</b>: an attempt that ends {@link FailureKind#RATE_LIMIT} with the provider's Retry-After cools
 *       its target for that long, at most {@link #maxRetryAfter()} ({@code null}: Retry-After is not honoured beyond
 *       the run's own backoff floor).</li>
 *   <li><b>Repeated failures</b>: {@link #failureThreshold()} attempts ending in one of {@link #failureKinds()} within
 *       {@link #failureWindow()} cool the target for {@link #failureCooldown()} ({@code 0}: off). The count is kept
 *       per instance; the cooldown it starts is shared like any other.</li>
 * </ul>
 *
 * <p>{@link #DEFAULT}, for targets without a rule of their own: Retry-After honoured up to one minute, repeated
 * failures off. It only ever acts on what a provider said explicitly.
 *
 * @param maxRetryAfter the longest cooldown a Retry-After may ask for, or {@code null} not to cool on Retry-After
 * @param failureThreshold how many failures within the window cool the target, {@code 0} for never
 * @param failureKinds the kinds that count: a subset of {@link #COUNTABLE_KINDS}
 * @param failureWindow how far back failures count, &gt; 0
 * @param failureCooldown how long the repeated failures cool the target, &gt; 0
 */
public record TargetCooldown(
    @Nullable Duration maxRetryAfter,
    int failureThreshold,
    Set<FailureKind> failureKinds,
    Duration failureWindow,
    Duration failureCooldown) {

  /**
   * The kinds that say something about a target's health: a validation, authorization or authentication failure is
   * about the request or its credentials, a cancellation about the caller, a permanent failure about neither.
   */
  public static final Set<FailureKind> COUNTABLE_KINDS = Collections.unmodifiableSet(
      EnumSet.of(FailureKind.TIMEOUT, FailureKind.TRANSIENT, FailureKind.RATE_LIMIT, FailureKind.MALFORMED_RESPONSE));

  /** The kinds counted when a rule names none: {@code timeout} and {@code transient}. */
  public static final Set<FailureKind> DEFAULT_FAILURE_KINDS =
      Collections.unmodifiableSet(EnumSet.of(FailureKind.TIMEOUT, FailureKind.TRANSIENT));

  /** {@link #DEFAULT}'s cap on Retry-After: one minute. */
  public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofMinutes(1);

  /** Retry-After honoured up to {@link #DEFAULT_MAX_RETRY_AFTER}; repeated failures off. */
  public static final TargetCooldown DEFAULT = new TargetCooldown(DEFAULT_MAX_RETRY_AFTER, 0, DEFAULT_FAILURE_KINDS,
      Duration.ofMinutes(1), Duration.ofSeconds(30));

  /** Never cools. */
  public static final TargetCooldown OFF = new TargetCooldown(null, 0, DEFAULT_FAILURE_KINDS, Duration.ofMinutes(1),
      Duration.ofSeconds(30));

  /**
   * @throws IllegalArgumentException naming the component when a duration is not positive, the threshold is negative
   *     or a kind is not countable
   */
  public TargetCooldown {
    if (maxRetryAfter != null) {
      positive(maxRetryAfter, "maxRetryAfter");
    }
    if (failureThreshold < 0) {
      throw new IllegalArgumentException("failureThreshold must be 0 (off) or more, was " + failureThreshold);
    }
    Objects.requireNonNull(failureKinds, "failureKinds");
    if (failureKinds.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("failureKinds cannot contain null");
    }
    Set<FailureKind> refused = failureKinds.stream().filter(kind -> !COUNTABLE_KINDS.contains(kind))
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(FailureKind.class)));
    if (!refused.isEmpty()) {
      throw new IllegalArgumentException("failureKinds cannot count "
          + refused.stream().map(FailureKind::wireValue).collect(Collectors.joining(", "))
          + ": only timeout, transient, rate_limit and malformed_response say something about a target's health");
    }
    if (failureThreshold > 0 && failureKinds.isEmpty()) {
      throw new IllegalArgumentException("failureKinds must name at least one kind when failureThreshold is set");
    }
    failureKinds = failureKinds.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(failureKinds));
    positive(failureWindow, "failureWindow");
    positive(failureCooldown, "failureCooldown");
  }

  /** This rule with Retry-After honoured up to {@code max}, or not at all for {@code null}. */
  public TargetCooldown withMaxRetryAfter(@Nullable Duration max) {
    return new TargetCooldown(max, failureThreshold, failureKinds, failureWindow, failureCooldown);
  }

  /**
   * This rule cooling the target for {@code coolFor} after {@code threshold} failures of {@code kinds} (none given:
   * {@link #DEFAULT_FAILURE_KINDS}) within {@code window}.
   */
  public TargetCooldown withFailures(int threshold, Duration window, Duration coolFor, FailureKind... kinds) {
    Set<FailureKind> counted = kinds.length == 0 ? DEFAULT_FAILURE_KINDS : Set.of(kinds);
    return new TargetCooldown(maxRetryAfter, threshold, counted, window, coolFor);
  }

  /** Whether this rule can ever cool its target. */
  public boolean enabled() {
    return maxRetryAfter != null || failureThreshold > 0;
  }

  /** How long a failure of {@code kind} with {@code retryAfter} cools the target by itself, or {@code null}. */
  @Nullable Duration retryAfterCooldown(FailureKind kind, @Nullable Duration retryAfter) {
    if (kind != FailureKind.RATE_LIMIT || retryAfter == null || maxRetryAfter == null || retryAfter.isZero()
        || retryAfter.isNegative()) {
      return null;
    }
    return retryAfter.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter;
  }

  /** Whether a failure of {@code kind} counts towards {@link #failureThreshold()}. */
  boolean counts(FailureKind kind) {
    return failureThreshold > 0 && failureKinds.contains(kind);
  }

  private static void positive(@Nullable Duration value, String component) {
    if (value == null) {
      throw new IllegalArgumentException(component + " must not be null");
    }
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(component + " must be greater than 0, was " + value);
    }
  }
}
