package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.zeocore.execution.ResilientExecutionResult;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Observation.Context} of one run of the {@link io.zeocore.execution.ResilientRunner}: the policy's name, a
 * fresh execution id and, once the run has ended, its result (records and codes; conventions must never read
 * {@link ResilientExecutionResult#value()}).
 */
public class ExecutionObservationContext extends PolicyRunContext {

  private @Nullable ResilientExecutionResult<?> result;

  public ExecutionObservationContext(String policyName, String executionId) {
    super(policyName, executionId);
  }

  /** The run's result, {@code null} while it runs. */
  public @Nullable ResilientExecutionResult<?> getResult() {
    return result;
  }

  void setResult(ResilientExecutionResult<?> result) {
    this.result = result;
  }
}
