package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of effect execution observations. Declare a bean of this type to replace
 * {@link DefaultEffectObservationConvention} (or extend it to add keys).
 */
public interface EffectObservationConvention extends ObservationConvention<EffectObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof EffectObservationContext;
  }
}
