package io.zeocore.connections.observation;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.ObservationReceipt;
import io.zeocore.connections.contract.ObservationState;
import io.zeocore.internal.ContractRules;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What the observation orchestrator returns. A refusal has no state, no id and no receipt, only its reason (read
 * refusals are never persisted). Otherwise the state and id are present; the receipt may be absent while another
 * claim of the same identity is still in flight.
 *
 * @param state the observation's state, {@code null} on refusal
 * @param observationId the observation, {@code null} on refusal
 * @param receipt the receipt once terminal
 * @param refusalReason only on refusal
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ObservationExecutionResult(
    ObservationState state,
    ObservationId observationId,
    ObservationReceipt receipt,
    AuthorizationRefusalReason refusalReason) {

  public ObservationExecutionResult {
    if (refusalReason != null) {
      if (state != null || observationId != null || receipt != null) {
        throw new IllegalArgumentException("refused observation result must carry only its refusal_reason");
      }
    } else {
      ContractRules.required(state, "state");
      ContractRules.required(observationId, "observation_id");
    }
  }

  public static ObservationExecutionResult refused(AuthorizationRefusalReason reason) {
    return new ObservationExecutionResult(null, null, null, ContractRules.required(reason, "refusal_reason"));
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ObservationExecutionResult.class, name);
  }
}
