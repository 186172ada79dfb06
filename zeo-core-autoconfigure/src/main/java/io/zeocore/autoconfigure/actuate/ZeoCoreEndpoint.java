package io.zeocore.autoconfigure.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.JsonMilliseconds;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.TargetHealth;
import io.zeocore.internal.MillisecondsJson;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code zeocore} actuator endpoint: the configured execution policies and their plans and, when ZeoCore's store
 * exists, how many effects are in each state. It shows configuration and counts only (names, targets, timings,
 * codes), never secrets or request data. Durations are milliseconds ({@code 90000}; see
 * {@link io.zeocore.JsonMilliseconds}), enum values are ZeoCore's wire values ({@code read_only}, {@code rate_limit}).
 */
@Endpoint(id = "zeocore")
public class ZeoCoreEndpoint {

  /** The selector that shows the recent events instead of a policy. */
  public static final String EVENTS = "events";

  /** The selector that shows the targets that are cooling down instead of a policy. */
  public static final String TARGETS = "targets";

  /**
   * How many effects a store holds in each state, by state name ({@code SUCCEEDED}, {@code AMBIGUOUS}, …), across
   * organizations. The starter counts with the store's {@code StoreIntrospection} when the application has
   * ZeoCore's connections; the endpoint itself needs none.
   */
  @FunctionalInterface
  public interface EffectCounts {

    Map<String, Long> byState();
  }

  private final ExecutionPolicies policies;
  private final @Nullable EffectCounts effects;
  private final @Nullable RecentEvents recent;
  private final @Nullable TargetHealth targetHealth;
  private final Clock clock;

  /**
   * @param policies the policies to show
   * @param effects the effects counted by state, or {@code null} when there is no store
   */
  public ZeoCoreEndpoint(ExecutionPolicies policies, @Nullable EffectCounts effects) {
    this(policies, effects, null);
  }

  /**
   * @param policies the policies to show
   * @param effects the effects counted by state, or {@code null} when there is no store
   * @param recent the recent runs and effect transitions, or {@code null} when none are kept
   * @param targetHealth the target cooldowns the runner consults, or {@code null} when it has none
   * @param clock this host's clock, for the instant each cooldown ends
   */
  public ZeoCoreEndpoint(ExecutionPolicies policies, @Nullable EffectCounts effects, @Nullable RecentEvents recent,
      @Nullable TargetHealth targetHealth, Clock clock) {
    this.policies = Objects.requireNonNull(policies, "policies");
    this.effects = effects;
    this.recent = recent;
    this.targetHealth = targetHealth;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * @param policies the policies to show
   * @param effects the effects counted by state, or {@code null} when there is no store
   * @param recent the recent runs and effect transitions, or {@code null} when none are kept
   */
  public ZeoCoreEndpoint(ExecutionPolicies policies, @Nullable EffectCounts effects, @Nullable RecentEvents recent) {
    this(policies, effects, recent, null, Clock.systemUTC());
  }

  @ReadOperation
  public ZeoCoreDescriptor zeocore() {
    Map<String, PolicyDescriptor> described = new LinkedHashMap<>();
    policies.asMap().forEach((name, policy) -> described.put(name, PolicyDescriptor.of(policy)));
    return new ZeoCoreDescriptor(described, effects != null ? effects.byState() : null, targets());
  }

  /** The targets that are not available, or {@code null} when the runner has no target health. */
  private @Nullable List<TargetView> targets() {
    if (targetHealth == null) {
      return null;
    }
    Instant now = clock.instant();
    return targetHealth.states().stream().map(state -> new TargetView(state.targetId(), state.status().wireValue(),
        state.cause().wireValue(), state.reason().wireValue(), state.coolingLeft(),
        now.plus(state.coolingLeft()))).toList();
  }

  /**
   * {@code /actuator/zeocore/events}: the recent runs and effect transitions, oldest first (see {@link RecentEvents});
   * {@code /actuator/zeocore/targets}: the targets that are cooling down or awaiting their probe, as this instance
   * sees them; {@code /actuator/zeocore/{policy}}: that policy's plan and its recent runs; an unknown policy is a
   * 404. The names {@value #EVENTS} and {@value #TARGETS} always mean the events and the targets, so a policy with
   * either name is shown only in the full view.
   */
  @ReadOperation
  public @Nullable OperationResponseBody select(@Selector String name) {
    if (TARGETS.equals(name)) {
      List<TargetView> targets = targets();
      return new TargetsDescriptor(targets != null, targets != null ? targets : List.of());
    }
    if (EVENTS.equals(name)) {
      return new EventsDescriptor(recent != null ? recent.capacity() : 0,
          recent != null ? recent.all() : List.of());
    }
    ExecutionPolicy policy = policies.asMap().get(name);
    if (policy == null) {
      return null;
    }
    return new PolicyView(name, PolicyDescriptor.of(policy), recent != null ? recent.runsOf(name) : List.of());
  }

  /**
   * The recent events.
   *
   * @param capacity how many entries the ring keeps ({@code zeocore.actuator.recent-events}; 0 when none are kept)
   * @param events the entries held, oldest first
   */
  public record EventsDescriptor(int capacity, List<RecentEvents.Entry> events) implements OperationResponseBody {}

  /**
   * The targets that are not available.
   *
   * @param enabled whether the runner has target health at all ({@code zeocore.execution.target-health.enabled})
   * @param targets each target cooling or awaiting its probe, by id; empty when every target is available
   */
  public record TargetsDescriptor(boolean enabled, List<TargetView> targets) implements OperationResponseBody {}

  /**
   * One target that is not available, as this instance sees it.
   *
   * @param targetId the target's id
   * @param status {@code cooling}, {@code probe_due} (its cooldown is over; the next run that gets the probe lease
   *     calls it) or {@code probing} (a run of this instance is calling it)
   * @param cause the failure kind that cooled it
   * @param reason {@code retry_after}, {@code repeated_failures} or {@code probe_failed}
   * @param coolingLeft how long it still cools (zero once a probe is due)
   * @param coolingUntil when it stops cooling, by this host's clock
   */
  public record TargetView(String targetId, String status, String cause, String reason,
      @JsonMilliseconds Duration coolingLeft, Instant coolingUntil) {}

  /**
   * One policy.
   *
   * @param name the policy's name
   * @param policy its resolved plan
   * @param recentRuns its runs among the recent events, oldest first
   */
  public record PolicyView(String name, PolicyDescriptor policy, List<RecentEvents.Entry> recentRuns)
      implements OperationResponseBody {}

  /**
   * What the endpoint shows.
   *
   * @param policies every configured policy by name, in configuration order
   * @param effects the number of effects in each state ({@code SUCCEEDED}, {@code AMBIGUOUS}, …), across
   *     organizations; absent when there is no store
   * @param targets the targets cooling down or awaiting their probe (empty when all are available); absent when the
   *     runner has no target health
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ZeoCoreDescriptor(Map<String, PolicyDescriptor> policies, @Nullable Map<String, Long> effects,
      @Nullable List<TargetView> targets) implements OperationResponseBody {}

  /** One policy and its plan; see {@link ExecutionPolicy} for each field's meaning. */
  public record PolicyDescriptor(
      String operationMode,
      @JsonMilliseconds Duration totalTimeout,
      @JsonMilliseconds Duration attemptTimeout,
      List<String> attemptTargets,
      List<BigDecimal> backoff,
      double jitterFraction,
      List<String> retryableFailures,
      boolean allowSimulated,
      @JsonMilliseconds Duration cancellationPoll,
      String deadline,
      Map<String, String> failureKinds,
      boolean ignoreCooldowns) {

    static PolicyDescriptor of(ExecutionPolicy policy) {
      Map<String, String> failureKinds = new LinkedHashMap<>();
      policy.failureKinds().forEach((type, kind) -> failureKinds.put(type.getName(), kind.wireValue()));
      return new PolicyDescriptor(policy.operationMode().wireValue(), policy.totalTimeout(),
          policy.attemptTimeout(), policy.attemptTargets(),
          policy.backoff().stream().map(MillisecondsJson::toMillis).toList(), policy.jitterFraction(),
          policy.retryableFailures().stream().sorted().map(FailureKind::wireValue).toList(), policy.allowSimulated(),
          policy.cancellationPoll(), policy.deadline().wireValue(), failureKinds, policy.ignoreCooldowns());
    }
  }
}
