package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.zeocore.connections.contract.ExecutionId;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.effect.EffectExecutionResult;
import org.jspecify.annotations.Nullable;

/** The context of one {@code EffectOrchestrator.execute} call: what was asked, then how the call ended. */
public class EffectObservationContext extends Observation.Context {

  private final OperationId operationId;
  private final ExecutionId executionId;
  private @Nullable EffectExecutionResult result;
  private @Nullable RuntimeException thrown;

  public EffectObservationContext(OperationId operationId, ExecutionId executionId) {
    this.operationId = operationId;
    this.executionId = executionId;
  }

  public OperationId getOperationId() {
    return operationId;
  }

  public ExecutionId getExecutionId() {
    return executionId;
  }

  /** The call's result, once it returned. */
  public @Nullable EffectExecutionResult getResult() {
    return result;
  }

  /** What the call threw (a preflight rejection or a store failure), once it did. */
  public @Nullable RuntimeException getThrown() {
    return thrown;
  }

  void setResult(EffectExecutionResult result) {
    this.result = result;
  }

  void setThrown(RuntimeException thrown) {
    this.thrown = thrown;
  }
}
