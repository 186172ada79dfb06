package io.zeocore.autoconfigure.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.JsonMilliseconds;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.internal.MillisecondsJson;
import java.math.BigDecimal;
import java.time.Duration;
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
   */
  public ZeoCoreEndpoint(ExecutionPolicies policies, @Nullable EffectCounts effects, @Nullable RecentEvents recent) {
    this.policies = Objects.requireNonNull(policies, "policies");
    this.effects = effects;
    this.recent = recent;
  }

  @ReadOperation
  public ZeoCoreDescriptor zeocore() {
    Map<String, PolicyDescriptor> described = new LinkedHashMap<>();
    policies.asMap().forEach((name, policy) -> described.put(name, PolicyDescriptor.of(policy)));
    return new ZeoCoreDescriptor(described, effects != null ? effects.byState() : null);
  }

  /**
   * {@code /actuator/zeocore/events}: the recent runs and effect transitions, oldest first (see {@link RecentEvents});
   * {@code /actuator/zeocore/{policy}}: that policy's plan and its recent runs; an unknown policy is a 404. The name
   * {@value #EVENTS} always means the events, so a policy called {@code events} is shown only in the full view.
   */
  @ReadOperation
  public @Nullable OperationResponseBody select(@Selector String name) {
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
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ZeoCoreDescriptor(Map<String, PolicyDescriptor> policies, @Nullable Map<String, Long> effects)
      implements OperationResponseBody {}

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
      Map<String, String> failureKinds) {

    static PolicyDescriptor of(ExecutionPolicy policy) {
      Map<String, String> failureKinds = new LinkedHashMap<>();
      policy.failureKinds().forEach((type, kind) -> failureKinds.put(type.getName(), kind.wireValue()));
      return new PolicyDescriptor(policy.operationMode().wireValue(), policy.totalTimeout(),
          policy.attemptTimeout(), policy.attemptTargets(),
          policy.backoff().stream().map(MillisecondsJson::toMillis).toList(), policy.jitterFraction(),
          policy.retryableFailures().stream().sorted().map(FailureKind::wireValue).toList(), policy.allowSimulated(),
          policy.cancellationPoll(), policy.deadline().wireValue(), failureKinds);
    }
  }
}
