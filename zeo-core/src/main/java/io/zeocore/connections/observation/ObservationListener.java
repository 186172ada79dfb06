package io.zeocore.connections.observation;

import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.OperationId;

/**
 * Told how each {@link ObservationOrchestrator#observe} call goes, on the caller's thread: {@link #observeStarted}
 * as the call begins (before any check), and the returned scope as it ends, right before it returns or throws. A
 * scope may hold thread-bound context (an observation in scope, so a dispatcher's client spans become its children).
 * Ids and codes only: never a request body, result or provider text. A listener that throws is logged (its type) and
 * never changes the call.
 */
public interface ObservationListener {

  /**
   * An {@code observe} call began.
   *
   * @param operationId the read operation requested (not yet checked)
   * @param observationId the caller's observation id
   */
  ObserveScope observeStarted(OperationId operationId, ObservationId observationId);

  /** One {@code observe} call, from its start to its end. */
  interface ObserveScope {

    /** The call returns {@code result}: a state reached, a refusal with its reason, or a stored observation. */
    void returned(ObservationExecutionResult result);

    /** The call throws {@code thrown} (a preflight rejection or a store failure); use its type and code only. */
    void threw(RuntimeException thrown);
  }
}
