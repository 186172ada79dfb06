package io.zeocore.execution;

import io.zeocore.JsonMilliseconds;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The terminal evidence of one run: never an exception. Enforces the reference's cross-field rules:
 * {@code SUCCEEDED} carries a selected target, a truthful {@link ExecutionMode} other than {@code NONE} and no failure
 * fields; every other outcome carries no value and a machine code.
 *
 * @param outcome the terminal outcome
 * @param value the value of a successful run, {@code null} otherwise
 * @param attempts every started attempt in call order (unmodifiable)
 * @param selectedTargetId the target that produced the value, {@code null} unless succeeded
 * @param executionMode the selected target's mode, {@code NONE} unless succeeded
 * @param failureKind the terminal failure kind, or {@code null} (always null for success, cancellation and
 *     configuration refusals)
 * @param machineCode the terminal {@code ZEO_EXEC_*} code, {@code null} only for success
 * @param totalElapsed time from the run's start to the terminal decision ({@code ZERO} for configuration refusals)
 * @param refusedTargetId for a configuration refusal about one planned target ({@code ZEO_EXEC_TARGET_UNAVAILABLE},
 *     {@code ZEO_EXEC_NESTED_RETRIES}, {@code ZEO_EXEC_SIMULATION_NOT_ALLOWED}), that target's id (for example the id
 *     no target was given for); {@code null} otherwise. Ids are configuration, never provider text
 * @param executionId the run's execution id ({@code exec-} and a random UUID), the same as in its
 *     {@link AttemptListener#forRun listeners}' events, its observations' {@code execution.id} and the MDC's
 *     {@code zeocore.execution.id}; every result a {@link ResilientRunner} returns has one, refusals included.
 *     {@code null} only for a result built by hand without one
 * @param <T> the response type
 */
public record ResilientExecutionResult<T>(
    ExecutionOutcome outcome,
    @Nullable T value,
    List<AttemptRecord> attempts,
    @Nullable String selectedTargetId,
    ExecutionMode executionMode,
    @Nullable FailureKind failureKind,
    @Nullable String machineCode,
    @JsonMilliseconds Duration totalElapsed,
    @Nullable String refusedTargetId,
    @Nullable String executionId) {

  /** A result that is not about one refused target and has no execution id (the original eight fields). */
  public ResilientExecutionResult(ExecutionOutcome outcome, T value, List<AttemptRecord> attempts,
      String selectedTargetId, ExecutionMode executionMode, FailureKind failureKind, String machineCode,
      Duration totalElapsed) {
    this(outcome, value, attempts, selectedTargetId, executionMode, failureKind, machineCode, totalElapsed, null,
        null);
  }

  /** A result without an execution id (the nine fields before execution ids). */
  public ResilientExecutionResult(ExecutionOutcome outcome, T value, List<AttemptRecord> attempts,
      String selectedTargetId, ExecutionMode executionMode, FailureKind failureKind, String machineCode,
      Duration totalElapsed, String refusedTargetId) {
    this(outcome, value, attempts, selectedTargetId, executionMode, failureKind, machineCode, totalElapsed,
        refusedTargetId, null);
  }

  public ResilientExecutionResult {
    Objects.requireNonNull(outcome, "outcome");
    attempts = List.copyOf(Objects.requireNonNull(attempts, "attempts"));
    Objects.requireNonNull(executionMode, "executionMode");
    Durations.nonNegative(totalElapsed, "totalElapsed");
    if (outcome == ExecutionOutcome.SUCCEEDED) {
      if (selectedTargetId == null) {
        throw new IllegalArgumentException("success requires selected_target_id");
      }
      if (executionMode == ExecutionMode.NONE) {
        throw new IllegalArgumentException("success requires truthful execution_mode");
      }
      if (failureKind != null || machineCode != null || refusedTargetId != null) {
        throw new IllegalArgumentException("success cannot carry terminal failure fields");
      }
    } else {
      if (value != null) {
        throw new IllegalArgumentException("non-success result cannot carry a value");
      }
      if (machineCode == null) {
        throw new IllegalArgumentException("non-success result requires machine_code");
      }
      if (refusedTargetId != null && outcome != ExecutionOutcome.REFUSED) {
        throw new IllegalArgumentException("only a refusal can name a refused target");
      }
    }
  }

  /**
   * The tokens the run's attempts reported, input and output together ({@link AttemptRecord#tokens()}); {@code 0}
   * when none reported any.
   */
  public long tokens() {
    long tokens = 0;
    for (AttemptRecord attempt : attempts) {
      tokens += attempt.tokens();
    }
    return tokens;
  }

  /** Whether the outcome is {@link ExecutionOutcome#SUCCEEDED}. */
  public boolean succeeded() {
    return outcome == ExecutionOutcome.SUCCEEDED;
  }

  /** The value of a successful run, empty otherwise. */
  public Optional<T> valueIfSucceeded() {
    return Optional.ofNullable(value);
  }

  /**
   * The value of a successful run; for any other outcome an {@link ExecutionFailedException} carrying this result's
   * outcome, failure kind, machine code, execution id and attempt records (never a value or provider text). For a
   * Spring MVC or WebFlux controller the starter maps that exception to a {@code ProblemDetail}.
   *
   * @throws ExecutionFailedException when the outcome is not {@link ExecutionOutcome#SUCCEEDED}
   */
  @SuppressWarnings("NullAway") // a successful run's value is what its target returned: T carries its nullness
  public T orElseThrow() {
    if (outcome != ExecutionOutcome.SUCCEEDED) {
      throw new ExecutionFailedException(this);
    }
    return value;
  }

  /** The run's execution id, if it has one (every result a {@link ResilientRunner} returns does). */
  public Optional<String> executionIdIfAny() {
    return Optional.ofNullable(executionId);
  }

  /** A result that carries no value. */
  static <T> ResilientExecutionResult<T> terminal(ExecutionOutcome outcome, List<AttemptRecord> attempts,
      @Nullable FailureKind failureKind, String machineCode, Duration totalElapsed, String executionId) {
    return new ResilientExecutionResult<>(outcome, null, attempts, null, ExecutionMode.NONE, failureKind, machineCode,
        totalElapsed, null, executionId);
  }

  /** A configuration refusal, about {@code targetId} when it is not {@code null}. */
  static <T> ResilientExecutionResult<T> refused(String machineCode, @Nullable String targetId, String executionId) {
    return new ResilientExecutionResult<>(ExecutionOutcome.REFUSED, null, List.of(), null, ExecutionMode.NONE, null,
        machineCode, Duration.ZERO, targetId, executionId);
  }

  /** The planned target a configuration refusal is about, if any. */
  public Optional<String> refusedTarget() {
    return Optional.ofNullable(refusedTargetId);
  }

  @Override
  public String toString() {
    // the value is deliberately left out: results are logged, values may hold provider text
    return "ResilientExecutionResult[" + (executionId != null ? "executionId=" + executionId + ", " : "")
        + "outcome=" + outcome + ", selectedTargetId=" + selectedTargetId
        + ", executionMode=" + executionMode + ", failureKind=" + failureKind + ", machineCode=" + machineCode
        + (refusedTargetId != null ? ", refusedTargetId=" + refusedTargetId : "")
        + ", attempts=" + attempts.size() + ", totalElapsed=" + totalElapsed + "]";
  }
}
