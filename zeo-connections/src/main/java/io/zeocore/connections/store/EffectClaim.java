package io.zeocore.connections.store;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.internal.ContractRules;

/**
 * The result of {@link EffectStore#claimEffect}.
 *
 * @param effect the claimed effect's last written snapshot, or, when not claimed, the existing effect of
 *     the same idempotency identity as currently stored
 * @param claimed whether this call won the claim (and so may dispatch)
 */
public record EffectClaim(EffectRecord effect, boolean claimed) {

  public EffectClaim {
    ContractRules.required(effect, "execution");
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectClaim.class, name);
  }
}
