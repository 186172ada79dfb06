package io.zeocore.connections;

import com.fasterxml.jackson.annotation.JsonAnySetter;

/**
 * The result of {@link BrokerExecutionStore#claimExecution}.
 *
 * @param execution the claimed execution's last written snapshot, or, when not claimed, the existing execution of
 *     the same idempotency identity as currently stored
 * @param claimed whether this call won the claim (and so may dispatch)
 */
public record ExecutionClaim(Execution execution, boolean claimed) {

  public ExecutionClaim {
    ContractRules.required(execution, "execution");
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ExecutionClaim.class, name);
  }
}
