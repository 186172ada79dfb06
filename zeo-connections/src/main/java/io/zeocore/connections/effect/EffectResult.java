package io.zeocore.connections.effect;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.internal.ContractRules;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What the effect orchestrator returns to its caller: secret-free, body-free. A refusal carries
 * {@code state = REFUSED} and its reason; an absent authorization is refused without an effect id. An idempotent
 * replay returns the existing effect's current state (possibly not terminal) without a reason.
 *
 * @param state the effect's state
 * @param effectId the effect, {@code null} only for a refusal that persisted nothing
 * @param refusalReason only with {@code state = REFUSED}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EffectResult(
    EffectState state, @Nullable EffectId effectId, @Nullable AuthorizationRefusalReason refusalReason) {

  public EffectResult {
    ContractRules.required(state, "state");
    if (refusalReason != null && state != EffectState.REFUSED) {
      throw new IllegalArgumentException("refusal_reason may only be set when state is REFUSED");
    }
    if (effectId == null && refusalReason == null) {
      throw new IllegalArgumentException("execution_id is required unless the result is a refusal");
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectResult.class, name);
  }
}
