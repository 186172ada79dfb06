package io.zeocore.autoconfigure.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.JsonMilliseconds;
import io.zeocore.autoconfigure.execution.ExecutionPolicies;
import io.zeocore.connections.store.StoreIntrospection;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.internal.MillisecondsJson;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code zeocore} actuator endpoint: the configured execution policies and their plans and, when ZeoCore's store
 * exists, how many effects are in each state. It shows configuration and counts only (names, targets, timings,
 * codes), never secrets or request data. Durations are milliseconds ({@code 90000}; see
 * {@link io.zeocore.JsonMilliseconds}), enum values are ZeoCore's wire values ({@code read_only}, {@code rate_limit}).
 */
@Endpoint(id = "zeocore")
public class ZeoCoreEndpoint {

  private final ExecutionPolicies policies;
  private final StoreIntrospection store;

  /**
   * @param policies the policies to show
   * @param store the store whose effects are counted, or {@code null} when there is none
   */
  public ZeoCoreEndpoint(ExecutionPolicies policies, StoreIntrospection store) {
    this.policies = Objects.requireNonNull(policies, "policies");
    this.store = store;
  }

  @ReadOperation
  public ZeoCoreDescriptor zeocore() {
    Map<String, PolicyDescriptor> described = new LinkedHashMap<>();
    policies.asMap().forEach((name, policy) -> described.put(name, PolicyDescriptor.of(policy)));
    Map<String, Long> effects = null;
    if (store != null) {
      effects = new LinkedHashMap<>();
      for (Map.Entry<EffectState, Long> count : store.executionCountsByState().entrySet()) {
        effects.put(count.getKey().name(), count.getValue());
      }
    }
    return new ZeoCoreDescriptor(described, effects);
  }

  /**
   * What the endpoint shows.
   *
   * @param policies every configured policy by name, in configuration order
   * @param effects the number of effects in each state ({@code SUCCEEDED}, {@code AMBIGUOUS}, …), across
   *     organizations; absent when there is no store
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ZeoCoreDescriptor(Map<String, PolicyDescriptor> policies, Map<String, Long> effects)
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
