package io.zeocore.connections.read;

import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.ReadId;

/**
 * Told how each {@link ReadOrchestrator#observe} call goes, on the caller's thread: {@link #readStarted}
 * as the call begins (before any check), and the returned scope as it ends, right before it returns or throws. A
 * scope may hold thread-bound context (a Micrometer observation in scope, so a dispatcher's client spans become its children).
 * Ids and codes only: never a request body, result or provider text. A listener that throws is logged (its type) and
 * never changes the call.
 */
public interface ReadListener {

  /**
   * An {@code observe} call began.
   *
   * @param operationId the read operation requested (not yet checked)
   * @param readId the caller's read id
   */
  ReadScope readStarted(OperationId operationId, ReadId readId);

  /** One {@code observe} call, from its start to its end. */
  interface ReadScope {

    /** The call returns {@code result}: a state reached, a refusal with its reason, or a stored observation. */
    void returned(ReadResult result);

    /** The call throws {@code thrown} (a preflight rejection or a store failure); use its type and code only. */
    void threw(RuntimeException thrown);
  }
}
