package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.JsonMilliseconds;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Immutable evidence of one <em>started</em> attempt, or of a planned position whose target was cooling and so was
 * {@link AttemptOutcome#SKIPPED skipped}. Carries only normalized kinds, machine codes and timings; never
 * a value, exception text or provider text. All times are measured from the run's start on the runner's monotonic
 * clock.
 *
 * @param attemptNumber 1-based position in the plan
 * @param targetId the planned target id
 * @param executionMode the target's mode ({@code LIVE} or {@code SIMULATED})
 * @param startedAfter when the attempt started, from the run's start
 * @param endedAfter when it ended, never before {@code startedAfter}
 * @param timeout the effective timeout handed to the target (zero for a skipped position)
 * @param dispatchStarted whether the provider may have been reached
 * @param outcome succeeded, failed or skipped
 * @param failureKind the normalized kind of a failed attempt (of a skipped one: the kind that cooled its target),
 *     {@code null} for a success
 * @param machineCode the kind's {@code ZEO_EXEC_*} code ({@link MachineCodes#TARGET_COOLING} for a skip), {@code null}
 *     for a success
 * @param backoffBeforeNext the delay actually scheduled after this attempt, zero when none was
 * @param usage what the attempt's model request used, as its target reported it ({@link AttemptContext#reportUsage}),
 *     or {@code null} when it reported nothing (then absent from JSON)
 * @param stream what a streamed attempt ({@link ResilientRunner#runStream}) delivered: chunk count and time to the
 *     first chunk, never their text; {@code null} for an attempt that was not streamed (then absent from JSON)
 *
 * <p>Serializable, so that an {@link ExecutionFailedException} that carries records can be.
 */
public record AttemptRecord(
    int attemptNumber,
    String targetId,
    ExecutionMode executionMode,
    @JsonMilliseconds Duration startedAfter,
    @JsonMilliseconds Duration endedAfter,
    @JsonMilliseconds Duration timeout,
    boolean dispatchStarted,
    AttemptOutcome outcome,
    @Nullable FailureKind failureKind,
    @Nullable String machineCode,
    @JsonMilliseconds Duration backoffBeforeNext,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ModelUsage usage,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable StreamEvidence stream) implements Serializable {

  /** A record without usage (the original eleven fields). */
  public AttemptRecord(int attemptNumber, String targetId, ExecutionMode executionMode, Duration startedAfter,
      Duration endedAfter, Duration timeout, boolean dispatchStarted, AttemptOutcome outcome,
      @Nullable FailureKind failureKind, @Nullable String machineCode, Duration backoffBeforeNext) {
    this(attemptNumber, targetId, executionMode, startedAfter, endedAfter, timeout, dispatchStarted, outcome,
        failureKind, machineCode, backoffBeforeNext, null, null);
  }

  /** A record of an attempt that was not streamed (the twelve fields before streamed runs). */
  public AttemptRecord(int attemptNumber, String targetId, ExecutionMode executionMode, Duration startedAfter,
      Duration endedAfter, Duration timeout, boolean dispatchStarted, AttemptOutcome outcome,
      @Nullable FailureKind failureKind, @Nullable String machineCode, Duration backoffBeforeNext,
      @Nullable ModelUsage usage) {
    this(attemptNumber, targetId, executionMode, startedAfter, endedAfter, timeout, dispatchStarted, outcome,
        failureKind, machineCode, backoffBeforeNext, usage, null);
  }

  public AttemptRecord {
    if (attemptNumber < 1) {
      throw new IllegalArgumentException("attemptNumber must be at least 1");
    }
    TargetIds.require(targetId);
    Objects.requireNonNull(executionMode, "executionMode");
    Durations.nonNegative(startedAfter, "startedAfter");
    Durations.nonNegative(endedAfter, "endedAfter");
    if (endedAfter.compareTo(startedAfter) < 0) {
      throw new IllegalArgumentException("attempt cannot end before it starts");
    }
    Objects.requireNonNull(outcome, "outcome");
    if (outcome == AttemptOutcome.SKIPPED) {
      Durations.nonNegative(timeout, "timeout");
      if (dispatchStarted || failureKind == null || !MachineCodes.TARGET_COOLING.equals(machineCode)) {
        throw new IllegalArgumentException(
            "a skipped position requires dispatchStarted=false, a failure kind and " + MachineCodes.TARGET_COOLING);
      }
    } else {
      Durations.positive(timeout, "timeout");
    }
    Durations.nonNegative(backoffBeforeNext, "backoffBeforeNext");
    if (outcome == AttemptOutcome.SUCCEEDED && (failureKind != null || machineCode != null)) {
      throw new IllegalArgumentException("successful attempt cannot carry failure fields");
    }
    if (outcome == AttemptOutcome.FAILED && (failureKind == null || machineCode == null)) {
      throw new IllegalArgumentException("failed attempt requires normalized failure fields");
    }
  }

  /** The tokens this attempt reported (input and output together), {@code 0} when it reported none. */
  public long tokens() {
    return usage != null ? usage.totalTokens() : 0;
  }

  /** {@code endedAfter - startedAfter}. */
  public Duration duration() {
    return endedAfter.minus(startedAfter);
  }
}
