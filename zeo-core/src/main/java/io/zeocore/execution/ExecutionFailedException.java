package io.zeocore.execution;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A run that did not succeed, as an exception: thrown by {@link ResilientExecutionResult#orElseThrow()} for an
 * application that prefers {@code @ExceptionHandler}s to inspecting results. It carries the result's evidence —
 * outcome, terminal failure kind, machine code, execution id and attempt records — and nothing else: no value, no
 * cause, no provider text. Its message holds only codes and ids, for example
 * {@code ZeoCore execution exec-3f1c… ended exhausted: timeout (ZEO_EXEC_TIMEOUT) after 2 attempts}.
 *
 * <p>With Spring MVC or WebFlux on the class path the starter maps it to an RFC 9457 {@code ProblemDetail}; see
 * the README ("A result as an exception, and as a {@code ProblemDetail}") for the status of each outcome.
 */
public final class ExecutionFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ExecutionOutcome outcome;
  private final @Nullable FailureKind failureKind;
  private final String machineCode;
  private final @Nullable String executionId;
  private final List<AttemptRecord> attempts;
  private final @Nullable String refusedTargetId;
  private final @Nullable String policyName;

  /**
   * The exception for {@code result}.
   *
   * @throws IllegalArgumentException when {@code result} succeeded
   */
  public ExecutionFailedException(ResilientExecutionResult<?> result) {
    this(null, result);
  }

  /**
   * The exception for {@code result} of the policy called {@code policyName} (named in the message too).
   *
   * @throws IllegalArgumentException when {@code result} succeeded
   */
  public ExecutionFailedException(@Nullable String policyName, ResilientExecutionResult<?> result) {
    super(message(policyName, Objects.requireNonNull(result, "result")));
    this.policyName = policyName;
    if (result.succeeded()) {
      throw new IllegalArgumentException("a successful result is not a failure");
    }
    this.outcome = result.outcome();
    this.failureKind = result.failureKind();
    this.machineCode = Objects.requireNonNull(result.machineCode(), "machineCode"); // every failure has one
    this.executionId = result.executionId();
    this.attempts = result.attempts(); // List.copyOf: a serializable immutable list
    this.refusedTargetId = result.refusedTargetId();
  }

  private static String message(@Nullable String policyName, ResilientExecutionResult<?> result) {
    StringBuilder message = new StringBuilder("ZeoCore execution ");
    if (result.executionId() != null) {
      message.append(result.executionId()).append(' ');
    }
    if (policyName != null) {
      message.append("of policy '").append(policyName).append("' ");
    }
    message.append("ended ").append(result.outcome().wireValue()).append(": ");
    if (result.failureKind() != null) {
      message.append(result.failureKind().wireValue()).append(" (").append(result.machineCode()).append(')');
    } else {
      message.append(result.machineCode());
    }
    if (result.refusedTargetId() != null) {
      message.append(" for planned target '").append(result.refusedTargetId()).append('\'');
    }
    int attempts = result.attempts().size();
    return message.append(" after ").append(attempts).append(attempts == 1 ? " attempt" : " attempts").toString();
  }

  /** The run's terminal outcome: never {@link ExecutionOutcome#SUCCEEDED}. */
  public ExecutionOutcome outcome() {
    return outcome;
  }

  /** The terminal failure kind; {@code null} for cancellation and configuration refusals. */
  public @Nullable FailureKind failureKind() {
    return failureKind;
  }

  /** The terminal {@code ZEO_EXEC_*} code. */
  public String machineCode() {
    return machineCode;
  }

  /** The run's execution id (as in its events, observations and log lines), {@code null} only for a hand-made result. */
  public @Nullable String executionId() {
    return executionId;
  }

  /** Every started attempt, in call order (unmodifiable). */
  public List<AttemptRecord> attempts() {
    return attempts;
  }

  /** The policy that ran, when the thrower named it; {@code null} otherwise. */
  public @Nullable String policyName() {
    return policyName;
  }

  /** For a configuration refusal about one planned target, its id; {@code null} otherwise. */
  public @Nullable String refusedTargetId() {
    return refusedTargetId;
  }
}
