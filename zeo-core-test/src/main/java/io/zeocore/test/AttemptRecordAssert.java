package io.zeocore.test;

import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.FailureKind;
import java.time.Duration;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * AssertJ assertions on one attempt record. From {@link ExecutionResultAssert#attempt(int)} a failure message shows the
 * whole run; from {@link ZeoCoreAssertions#assertThat(AttemptRecord)}, the record.
 */
public final class AttemptRecordAssert extends AbstractAssert<AttemptRecordAssert, AttemptRecord> {

  private final @Nullable String run;

  AttemptRecordAssert(AttemptRecord actual, @Nullable String run) {
    super(actual, AttemptRecordAssert.class);
    this.run = run;
  }

  private AttemptRecordAssert fail(String expectation) {
    failWithMessage("Expecting planned position %s to %s, but %s", actual.attemptNumber(), expectation,
        run != null ? run : "it was " + PlanDescription.step(actual) + " (" + actual + ")");
    return this;
  }

  /** It called {@code targetId}. */
  public AttemptRecordAssert isOn(String targetId) {
    isNotNull();
    return targetId.equals(actual.targetId()) ? this : fail("be on '" + targetId + "'");
  }

  /** It ended with {@code outcome}. */
  public AttemptRecordAssert hasOutcome(AttemptOutcome outcome) {
    isNotNull();
    return actual.outcome() == outcome ? this : fail("be " + outcome.wireValue());
  }

  /** It succeeded. */
  public AttemptRecordAssert succeeded() {
    return hasOutcome(AttemptOutcome.SUCCEEDED);
  }

  /** Its target was cooling and was not called. */
  public AttemptRecordAssert wasSkipped() {
    return hasOutcome(AttemptOutcome.SKIPPED);
  }

  /** It failed with {@code kind}. */
  public AttemptRecordAssert failedWith(FailureKind kind) {
    isNotNull();
    return actual.outcome() == AttemptOutcome.FAILED && actual.failureKind() == kind ? this
        : fail("fail " + kind.wireValue());
  }

  /** Its machine code is {@code machineCode}. */
  public AttemptRecordAssert hasMachineCode(String machineCode) {
    isNotNull();
    return machineCode.equals(actual.machineCode()) ? this : fail("carry " + machineCode);
  }

  /** The provider may have been reached ({@code true}) or certainly was not ({@code false}). */
  public AttemptRecordAssert dispatchStarted(boolean started) {
    isNotNull();
    return actual.dispatchStarted() == started ? this
        : fail(started ? "have reached the provider" : "not have reached the provider");
  }

  /** It started {@code after} the run did. */
  public AttemptRecordAssert startedAfter(Duration after) {
    isNotNull();
    return actual.startedAfter().equals(after) ? this : fail("start after " + PlanDescription.format(after));
  }

  /** It lasted exactly {@code duration}. */
  public AttemptRecordAssert lasted(Duration duration) {
    isNotNull();
    return actual.duration().equals(duration) ? this : fail("last " + PlanDescription.format(duration));
  }

  /** The wait after it was exactly {@code wait}. */
  public AttemptRecordAssert thenWaited(Duration wait) {
    isNotNull();
    return actual.backoffBeforeNext().equals(wait) ? this : fail("be followed by a wait of "
        + PlanDescription.format(wait));
  }

  /** It was given exactly {@code timeout}. */
  public AttemptRecordAssert hadTimeout(Duration timeout) {
    isNotNull();
    return actual.timeout().equals(timeout) ? this : fail("have the timeout " + PlanDescription.format(timeout));
  }
}
