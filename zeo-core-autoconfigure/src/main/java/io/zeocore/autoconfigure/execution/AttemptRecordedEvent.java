package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ZeoCoreExecutions;
import java.util.Objects;

/**
 * Published by the runner's {@link ExecutionEventPublisher} (runs through {@link ZeoCoreExecutions} or on the
 * {@code ResilientRunner} bean) as each attempt of a run ends, on the thread that ended it and before any
 * backoff wait, in attempt order. Carries the attempt's evidence only: kinds, codes and timings, never a value,
 * request, exception text or provider text.
 *
 * <p>Spring delivers it synchronously unless the application configured an asynchronous event multicaster: a slow
 * listener delays the run. A listener that throws does not change the run.
 *
 * @param policyName the name the run's policy is configured under
 * @param executionId the run's id, shared with its other events and its {@link ExecutionCompletedEvent}
 * @param attempt the attempt's evidence
 */
public record AttemptRecordedEvent(String policyName, String executionId, AttemptRecord attempt) {

  public AttemptRecordedEvent {
    Objects.requireNonNull(policyName, "policyName");
    Objects.requireNonNull(executionId, "executionId");
    Objects.requireNonNull(attempt, "attempt");
  }
}
