package io.zeocore.connections.effect;

import io.zeocore.connections.contract.EffectExecution;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectState;

/**
 * Told about every durable change an {@link EffectOrchestrator} or {@link EffectRecovery} makes, <em>after</em> the
 * transaction that persisted it has committed, in commit order, on the thread that made the change. This is the hook
 * behind the Spring starter's {@code EffectTransitionEvent} and {@code ReceiptRecordedEvent}.
 *
 * <p>Only records and codes are passed (executions, receipts); never request bodies, secrets or provider text. A
 * listener must be quick and must not call back into the orchestrator; an exception it throws is logged and
 * swallowed, never changing an outcome.
 */
public interface EffectListener {

  /**
   * An execution snapshot was persisted.
   *
   * @param execution the snapshot as stored
   * @param previousState the state it left, or {@code null} when the execution was created
   */
  default void transitionRecorded(EffectExecution execution, EffectState previousState) {}

  /** A receipt was persisted. */
  default void receiptRecorded(EffectReceipt receipt) {}
}
