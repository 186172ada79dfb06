package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptRecord;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Observation.Context} of one attempt, a child of its run's observation: the policy's name, the run's
 * execution id, the {@link AttemptContext} the target was handed and, once the attempt has ended, its
 * {@link AttemptRecord} (kinds, codes and timings only).
 */
public class AttemptObservationContext extends PolicyRunContext {

  private final AttemptContext attempt;
  private @Nullable AttemptRecord record;

  public AttemptObservationContext(String policyName, String executionId, AttemptContext attempt) {
    super(policyName, executionId);
    this.attempt = Objects.requireNonNull(attempt, "attempt");
  }

  public AttemptContext getAttempt() {
    return attempt;
  }

  /** The attempt's evidence, {@code null} while it runs. */
  public @Nullable AttemptRecord getRecord() {
    return record;
  }

  void setRecord(AttemptRecord record) {
    this.record = record;
  }
}
