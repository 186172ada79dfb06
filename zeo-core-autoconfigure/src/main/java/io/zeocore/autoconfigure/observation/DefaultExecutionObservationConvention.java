package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.zeocore.execution.ResilientExecutionResult;

/**
 * The default convention of run observations, named {@value #NAME}. Low-cardinality keys: {@code policy} (the
 * configured name), {@code outcome} (the terminal outcome's wire value, e.g. {@code failed_safe}),
 * {@code failure.kind} (the terminal kind's wire value, {@code none} when there is none) and {@code target} (the
 * selected target id, {@code none} unless succeeded). High-cardinality key: {@code execution.id}. Values are
 * configuration names and codes only: never a value, request, secret, exception text or provider text.
 */
public class DefaultExecutionObservationConvention implements ExecutionObservationConvention {

  /** The observation's name (a span's name with a tracing bridge; a timer's with the metrics handler). */
  public static final String NAME = "zeocore.execution";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(ExecutionObservationContext context) {
    return "zeocore " + context.getPolicyName();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ExecutionObservationContext context) {
    ResilientExecutionResult<?> result = context.getResult();
    String outcome = result != null ? result.outcome().wireValue() : "unknown";
    String kind = result != null && result.failureKind() != null ? result.failureKind().wireValue() : "none";
    String target = result != null && result.selectedTargetId() != null ? result.selectedTargetId() : "none";
    return KeyValues.of("policy", context.getPolicyName(), "outcome", outcome, "failure.kind", kind, "target",
        target);
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(ExecutionObservationContext context) {
    return KeyValues.of("execution.id", context.getExecutionId());
  }
}
