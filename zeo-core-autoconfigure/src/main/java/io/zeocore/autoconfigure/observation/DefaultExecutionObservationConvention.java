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
public class DefaultExecutionObservationConvention extends PolicyRunConvention<ExecutionObservationContext>
    implements ExecutionObservationConvention {

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
    String target = result != null && result.selectedTargetId() != null ? result.selectedTargetId() : "none";
    return policyRunKeyValues(context, result != null ? result.outcome() : null,
        result != null ? result.failureKind() : null).and("target", target);
  }
}
