package io.zeocore.connections.store;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.EffectExecution;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.internal.ContractRules;
import java.time.Instant;

/**
 * An execution that {@link EffectRecovery} should look at: one left at {@code DISPATCH_STARTED} (the process died
 * while the provider call was in flight) or one still {@code AMBIGUOUS}.
 *
 * @param execution the stored execution
 * @param reconciliationAttempts how many unresolved reconciliation attempt receipts it already has
 * @param lastReceiptAt the {@code recordedAt} of its latest receipt, or {@code null} when it has none
 */
public record RecoveryCandidate(EffectExecution execution, int reconciliationAttempts, Instant lastReceiptAt) {

  public RecoveryCandidate {
    if (execution == null) {
      throw new IllegalArgumentException("execution is required");
    }
    if (reconciliationAttempts < 0) {
      throw new IllegalArgumentException("reconciliation_attempts must not be negative");
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(RecoveryCandidate.class, name);
  }
}
