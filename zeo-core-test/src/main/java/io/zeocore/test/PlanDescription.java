package io.zeocore.test;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ResilientExecutionResult;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the assertions show a run in their failure messages: its outcome and code, then one line per planned position
 * (target, outcome, kind, code, when it started and ended, its backoff), and the path in the notation
 * {@link ExecutionResultAssert#tookPath} takes. Evidence only: never a value.
 */
final class PlanDescription {

  private PlanDescription() {}

  static String of(ResilientExecutionResult<?> result) {
    StringBuilder text = new StringBuilder("the run ")
        .append(result.outcome().wireValue());
    if (result.selectedTargetId() != null) {
      text.append(", answered by '").append(result.selectedTargetId()).append('\'');
    }
    if (result.machineCode() != null) {
      text.append(", ").append(result.machineCode());
    }
    if (result.failureKind() != null) {
      text.append(" (").append(result.failureKind().wireValue()).append(')');
    }
    text.append(", after ").append(format(result.totalElapsed()));
    if (result.attempts().isEmpty()) {
      text.append(", without any attempt");
    }
    for (AttemptRecord attempt : result.attempts()) {
      text.append(System.lineSeparator()).append("  ").append(attempt.attemptNumber()).append(". ")
          .append(attempt.targetId()).append(": ").append(attempt.outcome().wireValue());
      if (attempt.failureKind() != null) {
        text.append(' ').append(attempt.failureKind().wireValue());
      }
      if (attempt.machineCode() != null && attempt.failureKind() != null
          && !attempt.machineCode().equals(attempt.failureKind().machineCode())) {
        text.append(" [").append(attempt.machineCode()).append(']');
      }
      text.append(", ").append(format(attempt.startedAfter())).append(" → ").append(format(attempt.endedAfter()));
      if (!attempt.backoffBeforeNext().isZero()) {
        text.append(", then waited ").append(format(attempt.backoffBeforeNext()));
      }
      if (!attempt.dispatchStarted()) {
        text.append(", provider not reached");
      }
    }
    text.append(System.lineSeparator()).append("  path: ").append(path(result.attempts()));
    return text.toString();
  }

  /** The path notation: {@code primary:rate_limit → fallback:succeeded}. */
  static String path(List<AttemptRecord> attempts) {
    return attempts.stream().map(PlanDescription::step).collect(Collectors.joining(" → "));
  }

  /** One step: {@code target:succeeded}, {@code target:<kind>} for a failure, {@code target:skipped}. */
  static String step(AttemptRecord attempt) {
    return switch (attempt.outcome()) {
      case SUCCEEDED -> attempt.targetId() + ":succeeded";
      case SKIPPED -> attempt.targetId() + ":skipped";
      case FAILED -> attempt.targetId() + ":" + (attempt.failureKind() != null
          ? attempt.failureKind().wireValue() : "failed");
    };
  }

  static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 1000 == 0) {
      return (millis / 1000) + " s";
    }
    return millis + " ms";
  }
}
