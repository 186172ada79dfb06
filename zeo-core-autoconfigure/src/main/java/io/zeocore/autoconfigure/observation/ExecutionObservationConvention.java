package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of run observations. Declare a bean of this type to replace
 * {@link DefaultExecutionObservationConvention} (or extend it to add keys).
 */
public interface ExecutionObservationConvention extends ObservationConvention<ExecutionObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof ExecutionObservationContext;
  }
}
