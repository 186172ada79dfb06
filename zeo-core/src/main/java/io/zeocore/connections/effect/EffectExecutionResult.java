package io.zeocore.connections.effect;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.ExecutionId;
import io.zeocore.internal.ContractRules;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What the effect orchestrator returns to its caller: secret-free, body-free. A refusal carries
 * {@code state = REFUSED} and its reason; an absent authorization is refused without an execution id. An idempotent
 * replay returns the existing execution's current state (possibly not terminal) without a reason.
 *
 * @param state the execution's state
 * @param executionId the execution, {@code null} only for a refusal that persisted nothing
 * @param refusalReason only with {@code state = REFUSED}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EffectExecutionResult(
    EffectState state, ExecutionId executionId, AuthorizationRefusalReason refusalReason) {

  public EffectExecutionResult {
    ContractRules.required(state, "state");
    if (refusalReason != null && state != EffectState.REFUSED) {
      throw new IllegalArgumentException("refusal_reason may only be set when state is REFUSED");
    }
    if (executionId == null && refusalReason == null) {
      throw new IllegalArgumentException("execution_id is required unless the result is a refusal");
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectExecutionResult.class, name);
  }
}
