package io.zeocore.connections.store;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.ReadRecord;
import io.zeocore.connections.internal.ContractRules;

/**
 * The result of {@link ReadStore#claimRead}.
 *
 * @param read the claimed record, or the existing record of the same idempotency identity
 * @param claimed whether this call won the claim (and so may dispatch)
 */
public record ReadClaim(ReadRecord read, boolean claimed) {

  public ReadClaim {
    ContractRules.required(read, "observation");
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadClaim.class, name);
  }
}
