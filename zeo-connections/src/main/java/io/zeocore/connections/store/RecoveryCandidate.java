package io.zeocore.connections.store;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An effect that {@link EffectRecovery} should look at: one left at {@code DISPATCH_STARTED} (the process died
 * while the provider call was in flight) or one still {@code AMBIGUOUS}.
 *
 * @param effect the stored effect
 * @param reconciliationAttempts how many unresolved reconciliation attempt receipts it already has
 * @param lastReceiptAt the {@code recordedAt} of its latest receipt, or {@code null} when it has none
 */
public record RecoveryCandidate(EffectRecord effect, int reconciliationAttempts, @Nullable Instant lastReceiptAt) {

  public RecoveryCandidate {
    if (effect == null) {
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
