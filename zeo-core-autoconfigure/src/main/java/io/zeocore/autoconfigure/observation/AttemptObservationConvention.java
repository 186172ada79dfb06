package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of attempt observations. Declare a bean of this type to replace
 * {@link DefaultAttemptObservationConvention} (or extend it to add keys).
 */
public interface AttemptObservationConvention extends ObservationConvention<AttemptObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof AttemptObservationContext;
  }
}
