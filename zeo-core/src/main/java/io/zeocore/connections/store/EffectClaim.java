package io.zeocore.connections.store;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.EffectExecution;
import io.zeocore.internal.ContractRules;

/**
 * The result of {@link EffectStore#claimExecution}.
 *
 * @param execution the claimed execution's last written snapshot, or, when not claimed, the existing execution of
 *     the same idempotency identity as currently stored
 * @param claimed whether this call won the claim (and so may dispatch)
 */
public record EffectClaim(EffectExecution execution, boolean claimed) {

  public EffectClaim {
    ContractRules.required(execution, "execution");
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectClaim.class, name);
  }
}
