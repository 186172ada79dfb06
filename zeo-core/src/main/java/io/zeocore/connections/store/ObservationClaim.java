package io.zeocore.connections.store;

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
}
