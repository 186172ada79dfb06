package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationConvention;
import io.zeocore.WireValue;
import io.zeocore.execution.FailureKind;
import org.jspecify.annotations.Nullable;

/**
 * What the conventions of run and attempt observations have in common: the run's execution id as the one
 * high-cardinality key, and the low-cardinality keys {@code policy}, {@code outcome} (the outcome's wire value,
 * {@code unknown} while it runs) and {@code failure.kind} (the kind's wire value, {@code none} when there is none).
 *
 * @param <C> the run's or the attempt's context
 */
abstract class PolicyRunConvention<C extends PolicyRunContext> implements ObservationConvention<C> {

  @Override
  public KeyValues getHighCardinalityKeyValues(C context) {
    return KeyValues.of("execution.id", context.getExecutionId());
  }

  /**
   * The {@code policy}, {@code outcome} and {@code failure.kind} keys of {@code context}.
   *
   * @param outcome how it ended, {@code null} while it runs
   * @param failureKind the kind it failed with, {@code null} while it runs or when there is none
   */
  static KeyValues policyRunKeyValues(PolicyRunContext context, @Nullable WireValue outcome,
      @Nullable FailureKind failureKind) {
    return KeyValues.of("policy", context.getPolicyName(), "outcome", outcome != null ? outcome.wireValue() : "unknown",
        "failure.kind", failureKind != null ? failureKind.wireValue() : "none");
  }
}
