package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.zeocore.execution.AttemptRecord;

/**
 * The default convention of attempt observations, named {@value #NAME}, children of their run's observation.
 * Low-cardinality keys: {@code policy}, {@code target} (the planned target id), {@code attempt} (the 1-based number),
 * {@code outcome} ({@code succeeded}/{@code failed}), {@code failure.kind} (the kind's wire value, {@code none} for a
 * success) and {@code dispatch.started} ({@code true}/{@code false}: whether the provider may have been reached).
 * High-cardinality key: {@code execution.id}. Never a value, request, secret, exception text or provider text.
 */
public class DefaultAttemptObservationConvention extends PolicyRunConvention<AttemptObservationContext>
    implements AttemptObservationConvention {

  /** The observation's name. */
  public static final String NAME = "zeocore.execution.attempt";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(AttemptObservationContext context) {
    return "zeocore attempt " + context.getAttempt().targetId();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(AttemptObservationContext context) {
    AttemptRecord record = context.getRecord();
    return policyRunKeyValues(context, record != null ? record.outcome() : null,
        record != null ? record.failureKind() : null).and("target", context.getAttempt().targetId(), "attempt",
            Integer.toString(context.getAttempt().attemptNumber()), "dispatch.started",
            record != null ? Boolean.toString(record.dispatchStarted()) : "unknown");
  }
}
