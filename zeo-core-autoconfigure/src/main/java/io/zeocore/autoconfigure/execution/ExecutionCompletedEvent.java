package io.zeocore.autoconfigure.execution;

import io.zeocore.JsonMilliseconds;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Published by the runner's {@link ExecutionEventPublisher} (runs through {@link ZeoCoreExecutions} or on the
 * {@code ResilientRunner} bean) once per run, after the run's last {@link AttemptRecordedEvent} and before
 * the caller gets the result (also for runs refused before any call, which have no attempts). It copies the result's
 * evidence and leaves the value out: events never carry values, requests, exception text or provider text.
 *
 * @param policyName the name the run's policy is configured under
 * @param executionId the run's id, shared with its attempt events
 * @param outcome the terminal outcome
 * @param selectedTargetId the target that produced the value, {@code null} unless succeeded
 * @param executionMode the selected target's mode, {@code NONE} unless succeeded
 * @param failureKind the terminal failure kind, or {@code null}
 * @param machineCode the terminal {@code ZEO_EXEC_*} code, {@code null} only for success
 * @param totalElapsed time from the run's start to its terminal decision
 * @param attempts every started attempt in call order
 */
public record ExecutionCompletedEvent(
    String policyName,
    String executionId,
    ExecutionOutcome outcome,
    @Nullable String selectedTargetId,
    ExecutionMode executionMode,
    @Nullable FailureKind failureKind,
    @Nullable String machineCode,
    @JsonMilliseconds Duration totalElapsed,
    List<AttemptRecord> attempts) {

  public ExecutionCompletedEvent {
    Objects.requireNonNull(policyName, "policyName");
    Objects.requireNonNull(executionId, "executionId");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(executionMode, "executionMode");
    Objects.requireNonNull(totalElapsed, "totalElapsed");
    attempts = List.copyOf(attempts);
  }

  /** The event for {@code result}, without its value. */
  public static ExecutionCompletedEvent of(String policyName, String executionId,
      ResilientExecutionResult<?> result) {
    return new ExecutionCompletedEvent(policyName, executionId, result.outcome(), result.selectedTargetId(),
        result.executionMode(), result.failureKind(), result.machineCode(), result.totalElapsed(), result.attempts());
  }

  /** Whether the outcome is {@link ExecutionOutcome#SUCCEEDED}. */
  public boolean succeeded() {
    return outcome == ExecutionOutcome.SUCCEEDED;
  }
}
