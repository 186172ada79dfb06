package io.zeocore.connections.effect;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OperationId;
import org.jspecify.annotations.Nullable;

/**
 * Told about every durable change an {@link EffectOrchestrator} or {@link EffectRecovery} makes, <em>after</em> the
 * transaction that persisted it has committed, in commit order, on the thread that made the change. This is the hook
 * behind the Spring starter's {@code EffectTransitionEvent} and {@code ReceiptRecordedEvent}.
 *
 * <p>Only records and codes are passed (effects, receipts); never request bodies, secrets or provider text. A
 * listener must be quick and must not call back into the orchestrator; an exception it throws is logged and
 * swallowed, never changing an outcome.
 */
public interface EffectListener {

  /**
   * An effect snapshot was persisted.
   *
   * @param effect the snapshot as stored
   * @param previousState the state it left, or {@code null} when the effect was created
   */
  default void transitionRecorded(EffectRecord effect, @Nullable EffectState previousState) {}

  /** A receipt was persisted. */
  default void receiptRecorded(EffectReceipt receipt) {}

  /** An {@link EffectRecovery} sweep ended (after its transitions were reported), with its counts. */
  default void sweepFinished(EffectRecovery.Sweep sweep) {}

  /**
   * {@link EffectOrchestrator#execute} was called (before any check), on the caller's thread; the returned scope is
   * told how that call ended, on the same thread, right before it returns or throws. Every transition and receipt of
   * the call is reported in between, on that thread, so a scope may hold thread-bound context (a read in
   * scope, whose children the transitions become). Ids and codes only.
   *
   * @param operationId the operation requested (not yet checked)
   * @param effectId the caller's effect id
   */
  default ExecuteScope executeStarted(OperationId operationId, EffectId effectId) {
    return ExecuteScope.NONE;
  }

  /** One {@link EffectOrchestrator#execute} call, from its start to its end. */
  interface ExecuteScope {

    /** A scope that records nothing. */
    ExecuteScope NONE = new ExecuteScope() {
      @Override
      public void returned(EffectResult result) {}

      @Override
      public void threw(RuntimeException thrown) {}
    };

    /** The call returns {@code result} (a state reached, a refusal with its reason, or an existing execution). */
    void returned(EffectResult result);

    /**
     * The call throws {@code thrown}: an {@link EffectPreflightException} (nothing persisted) or a store failure.
     * Its message is not for records: use its type and code.
     */
    void threw(RuntimeException thrown);
  }
}
