package io.zeocore.execution;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A run of a policy that did not succeed, for callers that want an exception instead of evidence (an
 * {@code @ExceptionHandler}, an advisor, a {@code ChatClient} call): it carries the run's
 * {@link ResilientExecutionResult} — outcome, failure kind, machine code, attempt records — and the policy's name.
 * Its message holds the policy name, outcome, machine code and attempt count only: never a value, exception text or
 * provider text.
 */
public class ExecutionFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String policyName;
  private final transient ResilientExecutionResult<?> result;

  /**
   * @param policyName the policy that ran
   * @param result its result, which did not succeed
   * @throws IllegalArgumentException when {@code result} succeeded
   */
  public ExecutionFailedException(String policyName, ResilientExecutionResult<?> result) {
    super(message(policyName, result));
    this.policyName = Objects.requireNonNull(policyName, "policyName");
    this.result = result;
  }

  private static String message(String policyName, ResilientExecutionResult<?> result) {
    Objects.requireNonNull(result, "result");
    if (result.outcome() == ExecutionOutcome.SUCCEEDED) {
      throw new IllegalArgumentException("a succeeded run is not a failure");
    }
    return "policy '" + policyName + "' ended " + result.outcome().wireValue() + " (" + result.machineCode()
        + ") after " + result.attempts().size() + (result.attempts().size() == 1 ? " attempt" : " attempts");
  }

  /** The policy that ran. */
  public String policyName() {
    return policyName;
  }

  /** The run's evidence. */
  public ResilientExecutionResult<?> result() {
    return result;
  }

  /** The terminal outcome (never {@code SUCCEEDED}). */
  public ExecutionOutcome outcome() {
    return result.outcome();
  }

  /** The terminal {@code ZEO_EXEC_*} code. */
  public String machineCode() {
    return result.machineCode();
  }

  /** The terminal failure kind, or {@code null} for a cancellation or a configuration refusal. */
  public @Nullable FailureKind failureKind() {
    return result.failureKind();
  }

  /** Every started attempt, in call order. */
  public List<AttemptRecord> attempts() {
    return result.attempts();
  }
}
