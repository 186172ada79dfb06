package io.zeocore.test;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.ObjectAssert;

/**
 * AssertJ assertions on a run's result. Every failure message shows the whole run (outcome, code, each planned
 * position with its target, outcome, kind and times, and the path), so a failing test says which way the plan went.
 * Obtain it from {@link ZeoCoreAssertions#assertThat(ResilientExecutionResult)}.
 *
 * @param <T> the run's value type
 */
public final class ExecutionResultAssert<T>
    extends AbstractAssert<ExecutionResultAssert<T>, ResilientExecutionResult<T>> {

  ExecutionResultAssert(ResilientExecutionResult<T> actual) {
    super(actual, ExecutionResultAssert.class);
  }

  private ExecutionResultAssert<T> fail(String expectation) {
    failWithMessage("Expecting %s, but %s", expectation, PlanDescription.of(actual));
    return this;
  }

  /** The run succeeded. */
  public ExecutionResultAssert<T> succeeded() {
    isNotNull();
    return actual.succeeded() ? this : fail("the run to succeed");
  }

  /** The run ended with {@code outcome}. */
  public ExecutionResultAssert<T> hasOutcome(ExecutionOutcome outcome) {
    isNotNull();
    return actual.outcome() == outcome ? this : fail("the run to end " + outcome.wireValue());
  }

  /** The run succeeded with the answer of {@code targetId}. */
  public ExecutionResultAssert<T> answeredBy(String targetId) {
    isNotNull();
    return actual.succeeded() && targetId.equals(actual.selectedTargetId()) ? this
        : fail("the run to be answered by '" + targetId + "'");
  }

  /** The run succeeded with {@code value}. */
  public ExecutionResultAssert<T> hasValue(T value) {
    isNotNull();
    return actual.succeeded() && Objects.equals(actual.value(), value) ? this
        : fail("the run to answer the expected value");
  }

  /** The run's terminal machine code is {@code machineCode}. */
  public ExecutionResultAssert<T> hasMachineCode(String machineCode) {
    isNotNull();
    return machineCode.equals(actual.machineCode()) ? this : fail("the machine code " + machineCode);
  }

  /** The run's terminal failure kind is {@code kind}. */
  public ExecutionResultAssert<T> hasFailureKind(FailureKind kind) {
    isNotNull();
    return actual.failureKind() == kind ? this : fail("the failure kind " + kind.wireValue());
  }

  /**
   * The run went exactly this way through its plan, one step per planned position it reached:
   * {@code "primary:timeout"} (a failed attempt and its kind), {@code "primary:skipped"} (a cooling target),
   * {@code "fallback:succeeded"}.
   */
  public ExecutionResultAssert<T> tookPath(String... steps) {
    isNotNull();
    String expected = String.join(" → ", steps);
    return expected.equals(PlanDescription.path(actual.attempts())) ? this
        : fail("the path " + expected);
  }

  /** The run reached {@code count} planned positions (attempts and skips). */
  public ExecutionResultAssert<T> hasAttemptCount(int count) {
    isNotNull();
    return actual.attempts().size() == count ? this : fail(count + " planned position(s)");
  }

  /** The run took exactly {@code elapsed} on its clock (exact under {@link VirtualTime}). */
  public ExecutionResultAssert<T> tookExactly(Duration elapsed) {
    isNotNull();
    return actual.totalElapsed().equals(elapsed) ? this : fail("the run to take exactly " + format(elapsed));
  }

  /** The run took at most {@code elapsed} on its clock. */
  public ExecutionResultAssert<T> tookAtMost(Duration elapsed) {
    isNotNull();
    return actual.totalElapsed().compareTo(elapsed) <= 0 ? this : fail("the run to take at most " + format(elapsed));
  }

  /** The waits between positions were exactly these, in order (only positions followed by a wait count). */
  public ExecutionResultAssert<T> waited(Duration... waits) {
    isNotNull();
    List<Duration> actualWaits = actual.attempts().stream().map(AttemptRecord::backoffBeforeNext)
        .filter(wait -> !wait.isZero()).toList();
    return actualWaits.equals(Arrays.asList(waits)) ? this
        : fail("the waits " + Arrays.stream(waits).map(ExecutionResultAssert::format).toList());
  }

  /** Assertions on the record of planned position {@code attemptNumber} (1-based). */
  public AttemptRecordAssert attempt(int attemptNumber) {
    isNotNull();
    if (attemptNumber < 1 || attemptNumber > actual.attempts().size()) {
      fail("a planned position " + attemptNumber);
    }
    return new AttemptRecordAssert(actual.attempts().get(attemptNumber - 1), PlanDescription.of(actual));
  }

  /** Assertions on the run's value (of a successful run; {@code null} otherwise). */
  public ObjectAssert<T> value() {
    isNotNull();
    return new ObjectAssert<>(actual.value());
  }

  private static String format(Duration duration) {
    return PlanDescription.format(duration);
  }
}
