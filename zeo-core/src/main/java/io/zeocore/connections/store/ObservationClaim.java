package io.zeocore.connections.store;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.ObservationRecord;
import io.zeocore.internal.ContractRules;

/**
 * The result of {@link ObservationStore#claimObservation}.
 *
 * @param observation the claimed record, or the existing record of the same idempotency identity
 * @param claimed whether this call won the claim (and so may dispatch)
 */
public record ObservationClaim(ObservationRecord observation, boolean claimed) {

  public ObservationClaim {
    ContractRules.required(observation, "observation");
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ObservationClaim.class, name);
  }
}
