package io.zeocore.connections.read;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadState;
import io.zeocore.connections.internal.ContractRules;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What the read orchestrator returns. A refusal has no state, no id and no receipt, only its reason (read
 * refusals are never persisted). Otherwise the state and id are present; the receipt may be absent while another
 * claim of the same identity is still in flight.
 *
 * @param state the read's state, {@code null} on refusal
 * @param readId the read, {@code null} on refusal
 * @param receipt the receipt once terminal
 * @param refusalReason only on refusal
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReadResult(
    @Nullable ReadState state,
    @Nullable ReadId readId,
    @Nullable ReadReceipt receipt,
    @Nullable AuthorizationRefusalReason refusalReason) {

  public ReadResult {
    if (refusalReason != null) {
      if (state != null || readId != null || receipt != null) {
        throw new IllegalArgumentException("refused observation result must carry only its refusal_reason");
      }
    } else {
      ContractRules.required(state, "state");
      ContractRules.required(readId, "observation_id");
    }
  }

  public static ReadResult refused(AuthorizationRefusalReason reason) {
    return new ReadResult(null, null, null, ContractRules.required(reason, "refusal_reason"));
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadResult.class, name);
  }
}
