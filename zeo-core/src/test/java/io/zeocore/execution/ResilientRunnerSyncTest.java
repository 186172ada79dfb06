package io.zeocore.execution;

import static io.zeocore.execution.TargetMaps.targets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResilientRunnerSyncTest {

  private static final String CANARY = "canary-7f3a-provider-said-secret-token";

  private final ManualClock clock = new ManualClock();
  private final List<AttemptContext> calls = new ArrayList<>();
  private final RecordingAttemptListener listener = new RecordingAttemptListener();
  private final List<AttemptRecord> heard = listener.attempts;
  private final List<ResilientExecutionResult<?>> finished = listener.runs;

  private ResilientRunner runner() {
    return runner(() -> {
      throw new AssertionError("jitter must not be called when jitter_fraction is 0");
    });
  }

  private ResilientRunner runner(JitterSource jitter) {
    return ResilientRunner.builder().clock(clock).sleeper(clock).jitter(jitter).listener(listener).build();
  }

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(120))
        .attemptTimeout(Duration.ofSeconds(90))
        .attemptTargets(plan);
  }

  /** A target that spends {@code took} on the clock, then returns {@code value}. */
  private SyncExecutionTarget<String> returning(String id, String value, Duration took) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      calls.add(context);
      clock.advance(took);
      return value;
    });
  }

  /** A target that spends {@code took} on the clock, then throws {@code error}. */
  private SyncExecutionTarget<String> throwing(String id, Exception error, Duration took) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      calls.add(context);
      clock.advance(took);
      throw error;
    });
  }

  private SyncExecutionTarget<String> failing(String id, FailureKind kind) {
    return throwing(id, new AttemptError(kind), Duration.ofSeconds(1));
  }

  /** A target that cancels {@code token} during its call, then ends the call as {@code then} does. */
  private static SyncExecutionTarget<String> cancellingDuringItsCall(String id, SettableCancellationToken token,
      SyncExecutionTarget.Invocation<String> then) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      token.cancel();
      return then.invoke(context);
    });
  }

  @Test
  void seedExampleGivesTheSecondAttemptWhatIsLeftOfTheBudget() {
    ExecutionPolicy policy = policy("ollama-local", "openai-api").backoff(Duration.ofMillis(500)).build();
    ResilientExecutionResult<String> result = runner().runSync(policy, targets(
        throwing("ollama-local", new AttemptError(FailureKind.TRANSIENT), Duration.ofSeconds(100)),
        returning("openai-api", "summary", Duration.ofSeconds(2))));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo("summary");
    assertThat(result.selectedTargetId()).isEqualTo("openai-api");
    assertThat(result.executionMode()).isEqualTo(ExecutionMode.LIVE);
    assertThat(calls).extracting(AttemptContext::timeout)
        .containsExactly(Duration.ofSeconds(90), Duration.ofMillis(19_500));
    assertThat(calls).extracting(AttemptContext::remainingTotal)
        .containsExactly(Duration.ofSeconds(120), Duration.ofMillis(19_500));
    assertThat(clock.sleeps).hasSize(5).allMatch(slice -> slice.equals(Duration.ofMillis(100)));

    AttemptRecord first = result.attempts().get(0);
    assertThat(first.attemptNumber()).isEqualTo(1);
    assertThat(first.outcome()).isEqualTo(AttemptOutcome.FAILED);
    assertThat(first.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(first.machineCode()).isEqualTo("ZEO_EXEC_TRANSIENT");
    assertThat(first.startedAfter()).isZero();
    assertThat(first.endedAfter()).isEqualTo(Duration.ofSeconds(100));
    assertThat(first.timeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(first.backoffBeforeNext()).isEqualTo(Duration.ofMillis(500));
    AttemptRecord second = result.attempts().get(1);
    assertThat(second.outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(second.startedAfter()).isEqualTo(Duration.ofMillis(100_500));
    assertThat(second.endedAfter()).isEqualTo(Duration.ofMillis(102_500));
    assertThat(second.failureKind()).isNull();
    assertThat(second.machineCode()).isNull();
    assertThat(second.dispatchStarted()).isTrue();
    assertThat(result.totalElapsed()).isEqualTo(Duration.ofMillis(102_500));
    assertThat(heard).isEqualTo(result.attempts());
    assertThat(finished).containsExactly(result);
  }

  @Test
  void onlyPlannedTargetsRun() {
    AtomicInteger unplanned = new AtomicInteger();
    Map<String, SyncExecutionTarget<String>> map = targets(returning("a", "ok", Duration.ZERO),
        SyncExecutionTarget.of("b", String.class, context -> {
          unplanned.incrementAndGet();
          return "never";
        }));
    assertThat(runner().runSync(policy("a").build(), map).value()).isEqualTo("ok");
    assertThat(unplanned).hasValue(0);
  }

  @Test
  void refusesEffectfulPolicyBeforeAnyCall() {
    ExecutionPolicy policy = policy("a", "missing").operationMode(OperationMode.EFFECTFUL).build();
    ResilientExecutionResult<String> result = runner().runSync(policy, targets(returning("a", "x", Duration.ZERO)));
    assertRefusedBeforeStart(result, MachineCodes.EFFECTFUL_REQUIRES_PERSISTENCE);
  }

  @Test
  void refusesMissingTargetEvenWhenEarlierTargetsAreValid() {
    ResilientExecutionResult<String> result =
        runner().runSync(policy("a", "missing").build(), targets(returning("a", "x", Duration.ZERO)));
    assertRefusedBeforeStart(result, MachineCodes.TARGET_UNAVAILABLE);
  }

  @Test
  void refusesTargetRegisteredUnderAnotherId() {
    Map<String, SyncExecutionTarget<String>> map = Map.of("a", returning("b", "x", Duration.ZERO));
    assertRefusedBeforeStart(runner().runSync(policy("a").build(), map), MachineCodes.TARGET_UNAVAILABLE);
  }

  @Test
  void refusesTargetsThatRetryInternally() {
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(),
        targets(returning("a", "x", Duration.ZERO).withInternalMaxAttempts(3)));
    // a is nested and b is missing: checks run per target in plan order, so the nested retry is reported
    assertRefusedBeforeStart(result, MachineCodes.NESTED_RETRIES);
  }

  @Test
  void refusesSimulatedTargetsUnlessAllowed() {
    SyncExecutionTarget<String> simulated = returning("sim", "fake", Duration.ZERO)
        .withExecutionMode(ExecutionMode.SIMULATED);
    assertRefusedBeforeStart(runner().runSync(policy("sim").build(), targets(simulated)),
        MachineCodes.SIMULATION_NOT_ALLOWED);

    ResilientExecutionResult<String> allowed =
        runner().runSync(policy("sim").allowSimulated(true).build(), targets(simulated));
    assertThat(allowed.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(allowed.executionMode()).isEqualTo(ExecutionMode.SIMULATED);
    assertThat(allowed.attempts().get(0).executionMode()).isEqualTo(ExecutionMode.SIMULATED);
  }

  @Test
  void refusesPlansWhoseResponseTypesDiffer() {
    Map<String, SyncExecutionTarget<Object>> map = new LinkedHashMap<>();
    map.put("a", SyncExecutionTarget.of("a", Object.class, context -> "x"));
    @SuppressWarnings({"unchecked", "rawtypes"})
    SyncExecutionTarget<Object> other = (SyncExecutionTarget) SyncExecutionTarget.of("b", String.class, c -> "y");
    map.put("b", other);
    ResilientExecutionResult<Object> result = runner().runSync(policy("a", "b").build(), map);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.RESPONSE_CONTRACT_MISMATCH);
    assertThat(clock.reads()).isZero();
  }

  private void assertRefusedBeforeStart(ResilientExecutionResult<String> result, String code) {
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.machineCode()).isEqualTo(code);
    assertThat(result.failureKind()).isNull();
    assertThat(result.attempts()).isEmpty();
    assertThat(result.totalElapsed()).isZero();
    assertThat(result.executionMode()).isEqualTo(ExecutionMode.NONE);
    assertThat(result.selectedTargetId()).isNull();
    assertThat(calls).isEmpty();
    assertThat(clock.reads()).as("clock reads").isZero();
    assertThat(finished).containsExactly(result);
  }

  @Test
  void endsCancelledBeforeTheFirstCall() {
    SettableCancellationToken token = new SettableCancellationToken();
    token.cancel();
    ResilientExecutionResult<String> result =
        runner().runSync(policy("a").build(), targets(returning("a", "x", Duration.ZERO)), token);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.machineCode()).isEqualTo("ZEO_EXEC_CANCELLED");
    assertThat(result.failureKind()).isNull();
    assertThat(result.attempts()).isEmpty();
    assertThat(calls).isEmpty();
  }

  @Test
  void cancellationAfterAFailureOverridesTheFailureClass() {
    SettableCancellationToken token = new SettableCancellationToken();
    SyncExecutionTarget<String> a = cancellingDuringItsCall("a", token, context -> {
      throw new AttemptError(FailureKind.AUTHENTICATION);
    });
    ResilientExecutionResult<String> result =
        runner().runSync(policy("a", "b").build(), targets(a, returning("b", "x", Duration.ZERO)), token);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.failureKind()).isNull();
    assertThat(result.attempts()).singleElement()
        .satisfies(record -> assertThat(record.failureKind()).isEqualTo(FailureKind.AUTHENTICATION));
    assertThat(calls).isEmpty();
  }

  @Test
  void cancellationDuringASuccessfulAttemptIsIgnored() {
    SettableCancellationToken token = new SettableCancellationToken();
    SyncExecutionTarget<String> a = cancellingDuringItsCall("a", token, context -> "done");
    assertThat(runner().runSync(policy("a").build(), targets(a), token).outcome())
        .isEqualTo(ExecutionOutcome.SUCCEEDED);
  }

  @Test
  void cancellationDuringBackoffStopsTheWaitWithinOneSlice() {
    SettableCancellationToken token = new SettableCancellationToken();
    ResilientRunner runner = ResilientRunner.builder().clock(clock).sleeper(duration -> {
      clock.sleep(duration);
      if (clock.sleeps.size() == 3) {
        token.cancel();
      }
    }).build();
    ResilientExecutionResult<String> result = runner.runSync(policy("a", "b").backoff(Duration.ofSeconds(10)).build(),
        targets(failing("a", FailureKind.TIMEOUT), returning("b", "x", Duration.ZERO)), token);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.CANCELLED);
    assertThat(clock.sleeps).hasSize(3);
    assertThat(result.attempts()).hasSize(1);
    assertThat(result.totalElapsed()).isEqualTo(Duration.ofMillis(1_300));
    assertThat(calls).hasSize(1);
  }

  @Test
  void targetReportingCancellationEndsTheRunCancelled() {
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(),
        targets(failing("a", FailureKind.CANCELLED), returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.failureKind()).isNull();
    assertThat(result.attempts()).singleElement()
        .satisfies(record -> assertThat(record.failureKind()).isEqualTo(FailureKind.CANCELLED));
    assertThat(result.totalElapsed()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void interruptEndsTheRunCancelledAndKeepsTheFlag() {
    SyncExecutionTarget<String> a = SyncExecutionTarget.of("a", String.class, context -> {
      throw new InterruptedException();
    });
    try {
      ResilientExecutionResult<String> result =
          runner().runSync(policy("a", "b").build(), targets(a, returning("b", "x", Duration.ZERO)));
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
      assertThat(result.attempts()).singleElement()
          .satisfies(record -> assertThat(record.failureKind()).isEqualTo(FailureKind.CANCELLED));
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void interruptDuringBackoffEndsTheRunCancelled() {
    ResilientRunner runner = ResilientRunner.builder().clock(clock).sleeper(duration -> {
      throw new InterruptedException();
    }).build();
    try {
      ResilientExecutionResult<String> result = runner.runSync(policy("a", "b").backoff(Duration.ofSeconds(1)).build(),
          targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)));
      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(calls).hasSize(1);
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void alreadyInterruptedThreadMakesNoCall() {
    Thread.currentThread().interrupt();
    try {
      ResilientExecutionResult<String> result =
          runner().runSync(policy("a").build(), targets(returning("a", "x", Duration.ZERO)));
      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
      assertThat(calls).isEmpty();
    } finally {
      assertThat(Thread.interrupted()).isTrue();
    }
  }

  @Test
  void exhaustsWhenNoBudgetIsLeftAtTheLoopTop() {
    ExecutionPolicy policy = policy("a", "b").totalTimeout(Duration.ofSeconds(10)).build();
    ResilientExecutionResult<String> result = runner().runSync(policy, targets(
        throwing("a", new AttemptError(FailureKind.RATE_LIMIT), Duration.ofSeconds(10)),
        returning("b", "x", Duration.ZERO)));
    // the delay 0 is < remaining 0? no: 0 >= 0 abandons the retry, so the plan ends EXHAUSTED after attempt 1
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(result.machineCode()).isEqualTo("ZEO_EXEC_RATE_LIMIT");
    assertThat(result.attempts().get(0).backoffBeforeNext()).isZero();
    assertThat(calls).hasSize(1);
  }

  @Test
  void budgetGateReportsTimeoutWhenNoAttemptRan() {
    MonotonicClock jumping = new MonotonicClock() {
      private long now;

      @Override
      public long nanoTime() {
        long value = now;
        now += Duration.ofSeconds(200).toNanos();
        return value;
      }
    };
    ResilientExecutionResult<String> result = ResilientRunner.builder().clock(jumping).build()
        .runSync(policy("a").build(), targets(returning("a", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.TIMEOUT);
    assertThat(result.attempts()).isEmpty();
    assertThat(result.totalElapsed()).isEqualTo(Duration.ofSeconds(200));
    assertThat(calls).isEmpty();
  }

  @Test
  void budgetGateIsTestedBeforeCancellation() {
    AtomicInteger checks = new AtomicInteger();
    // checks: start, gate 1, after the failure, after the (zero) backoff, gate 2
    CancellationToken token = () -> {
      int check = checks.incrementAndGet();
      if (check == 4) {
        clock.advance(Duration.ofSeconds(30));
      }
      return check >= 5;
    };
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").totalTimeout(Duration.ofSeconds(10))
        .build(), targets(failing("a", FailureKind.TIMEOUT), returning("b", "x", Duration.ZERO)), token);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(result.totalElapsed()).isEqualTo(Duration.ofSeconds(31));
    assertThat(checks).as("the token is not consulted once the budget is gone").hasValue(4);
  }

  @Test
  void abandonsRetryWhenBackoffWouldUseTheRemainingBudget() {
    ExecutionPolicy policy = policy("a", "b").totalTimeout(Duration.ofSeconds(10)).backoff(Duration.ofSeconds(9))
        .build();
    ResilientExecutionResult<String> result = runner().runSync(policy, targets(
        throwing("a", new AttemptError(FailureKind.TIMEOUT), Duration.ofSeconds(1)),
        returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.attempts()).singleElement()
        .satisfies(record -> assertThat(record.backoffBeforeNext()).isZero());
    assertThat(clock.sleeps).isEmpty();
  }

  @Test
  void exhaustsWhenThePlanRunsOutAfterRetryableFailures() {
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "a", "b").build(),
        targets(failing("a", FailureKind.TIMEOUT), failing("b", FailureKind.TRANSIENT)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts()).extracting(AttemptRecord::targetId).containsExactly("a", "a", "b");
    assertThat(result.attempts()).extracting(AttemptRecord::attemptNumber).containsExactly(1, 2, 3);
    assertThat(result.totalElapsed()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void validationAndAuthorizationFailuresAreRefusedWithAttempts() {
    for (FailureKind kind : List.of(FailureKind.VALIDATION, FailureKind.AUTHORIZATION)) {
      calls.clear();
      ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(),
          targets(failing("a", kind), returning("b", "x", Duration.ZERO)));
      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
      assertThat(result.failureKind()).isEqualTo(kind);
      assertThat(result.machineCode()).isEqualTo(kind.machineCode());
      assertThat(result.attempts()).hasSize(1);
      assertThat(calls).hasSize(1);
    }
  }

  @Test
  void otherNonRetryableFailuresFailSafe() {
    for (FailureKind kind : List.of(FailureKind.PERMANENT, FailureKind.AUTHENTICATION,
        FailureKind.MALFORMED_RESPONSE)) {
      ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(),
          targets(failing("a", kind), returning("b", "x", Duration.ZERO)));
      assertThat(result.outcome()).as(kind.name()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
      assertThat(result.failureKind()).isEqualTo(kind);
      assertThat(result.totalElapsed()).isEqualTo(result.attempts().get(0).endedAfter());
    }
    // a default-retryable kind the caller removed from the set
    ResilientExecutionResult<String> result = runner().runSync(
        policy("a", "b").retryableFailures(FailureKind.TRANSIENT).build(),
        targets(failing("a", FailureKind.TIMEOUT), returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
  }

  @Test
  void valueOfTheWrongTypeIsMalformedAndRetryableOnlyWhenThePolicyNamesIt() {
    @SuppressWarnings({"unchecked", "rawtypes"})
    SyncExecutionTarget<String> wrong =
        SyncExecutionTarget.of("a", String.class, (SyncExecutionTarget.Invocation) context -> Integer.valueOf(3));
    SyncExecutionTarget<String> nullValue = SyncExecutionTarget.of("n", String.class, context -> null);
    ResilientExecutionResult<String> failedSafe = runner().runSync(policy("a", "b").build(),
        targets(wrong, returning("b", "x", Duration.ZERO)));
    assertThat(failedSafe.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(failedSafe.failureKind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(failedSafe.attempts().get(0).dispatchStarted()).isTrue();

    ResilientExecutionResult<String> fellBack = runner().runSync(
        policy("n", "b").retryableFailures(FailureKind.MALFORMED_RESPONSE).build(),
        targets(nullValue, returning("b", "x", Duration.ZERO)));
    assertThat(fellBack.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(fellBack.selectedTargetId()).isEqualTo("b");
  }

  @Test
  void classifiesThrownExceptionsWithoutKeepingTheirText() {
    ResilientExecutionResult<String> timeout = runner().runSync(policy("a").build(),
        targets(throwing("a", new TimeoutException(CANARY), Duration.ZERO)));
    assertThat(timeout.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(timeout.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    ResilientExecutionResult<String> socket = runner().runSync(policy("a").build(),
        targets(throwing("a", new SocketTimeoutException(CANARY), Duration.ZERO)));
    assertThat(socket.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    ResilientExecutionResult<String> other = runner().runSync(policy("a").build(),
        targets(throwing("a", new IllegalStateException(CANARY), Duration.ZERO)));
    assertThat(other.failureKind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(other.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(other.attempts().get(0).dispatchStarted()).isTrue();

    for (ResilientExecutionResult<String> result : List.of(timeout, socket, other)) {
      assertThat(result.toString()).doesNotContain(CANARY);
      assertThat(result.attempts().toString()).doesNotContain(CANARY);
    }
    assertThat(heard.toString()).doesNotContain(CANARY);
  }

  @Test
  void attemptErrorKeepsDispatchStartedAndCarriesNoText() {
    AttemptError error = new AttemptError(FailureKind.TRANSIENT, false, null, new RuntimeException(CANARY));
    assertThat(error.getMessage()).isEqualTo("transient");
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(),
        targets(throwing("a", error, Duration.ZERO), returning("b", "x", Duration.ZERO)));
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
    assertThat(result.attempts().get(1).dispatchStarted()).isTrue();
    assertThat(result.toString() + result.attempts()).doesNotContain(CANARY);
  }

  @Test
  void preflightFailureMakesZeroCalls() {
    ResilientExecutionResult<String> refused = runner().runSync(policy("a", "b").build(), targets(
        returning("a", "x", Duration.ZERO).withPreflightFailure(FailureKind.AUTHORIZATION),
        returning("b", "y", Duration.ZERO)));
    assertThat(refused.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(refused.failureKind()).isEqualTo(FailureKind.AUTHORIZATION);
    assertThat(refused.machineCode()).isEqualTo(MachineCodes.AUTHORIZATION);
    assertThat(refused.attempts()).isEmpty();
    assertThat(calls).isEmpty();
  }

  @Test
  void preflightFailureOfOtherKindsFailsSafeAndEndsThePlan() {
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b", "c").build(), targets(
        failing("a", FailureKind.TRANSIENT),
        returning("b", "y", Duration.ZERO).withPreflightFailure(FailureKind.CANCELLED),
        returning("c", "z", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.failureKind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.CANCELLED);
    assertThat(result.attempts()).hasSize(1);
    assertThat(calls).extracting(AttemptContext::targetId).containsExactly("a");

    calls.clear();
    ResilientExecutionResult<String> timeout = runner().runSync(policy("a").build(),
        targets(returning("a", "x", Duration.ZERO).withPreflightFailure(FailureKind.TIMEOUT)));
    assertThat(timeout.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(calls).isEmpty();
  }

  @Test
  void jitterScalesTheConfiguredBackoffWithinItsBounds() {
    ExecutionPolicy policy = policy("a", "b").backoff(Duration.ofSeconds(2)).jitterFraction(0.5).build();
    for (double[] pair : new double[][] {{1.0, 3_000}, {0.0, 1_000}, {0.5, 2_000}, {7.0, 3_000}, {-3.0, 1_000}}) {
      AtomicInteger jitterCalls = new AtomicInteger();
      ResilientExecutionResult<String> result = runner(() -> {
        jitterCalls.incrementAndGet();
        return pair[0];
      }).runSync(policy, targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)));
      assertThat(result.attempts().get(0).backoffBeforeNext()).as("u=%s", pair[0])
          .isEqualTo(Duration.ofMillis((long) pair[1]));
      assertThat(jitterCalls).hasValue(1);
    }
  }

  @Test
  void retryAfterIsTheFloorAfterJitter() {
    ExecutionPolicy policy = policy("a", "b").backoff(Duration.ofSeconds(2)).jitterFraction(0.5).build();
    SyncExecutionTarget<String> limited = throwing("a",
        new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofMillis(1_500)), Duration.ZERO);
    ResilientExecutionResult<String> result = runner(() -> 0.0)
        .runSync(policy, targets(limited, returning("b", "x", Duration.ZERO)));
    // jitter shortens 2 s to 1 s, the server's 1.5 s Retry-After stays the floor
    assertThat(result.attempts().get(0).backoffBeforeNext()).isEqualTo(Duration.ofMillis(1_500));
    assertThat(clock.totalSlept()).isEqualTo(Duration.ofMillis(1_500));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);

    ResilientExecutionResult<String> noBackoff = runner().runSync(policy("a", "b").build(),
        targets(throwing("a", new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofSeconds(3)), Duration.ZERO),
            returning("b", "x", Duration.ZERO)));
    assertThat(noBackoff.attempts().get(0).backoffBeforeNext()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void retryAfterBeyondTheBudgetAbandonsTheRetry() {
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").totalTimeout(Duration.ofSeconds(5))
        .build(), targets(throwing("a", new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofSeconds(60)),
        Duration.ZERO), returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
  }

  @Test
  void backoffIsSlicedExactlyByThePollInterval() {
    ResilientExecutionResult<String> result = runner().runSync(
        policy("a", "b").backoff(Duration.ofSeconds(1)).build(),
        targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(clock.sleeps).hasSize(10).allMatch(slice -> slice.equals(Duration.ofMillis(100)));

    clock.sleeps.clear();
    runner().runSync(policy("a", "b").backoff(Duration.ofMillis(250)).cancellationPoll(Duration.ofMillis(100)).build(),
        targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)));
    assertThat(clock.sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(50));
  }

  @Test
  void zeroBackoffNeverSleepsButStillChecksCancellation() {
    AtomicInteger checks = new AtomicInteger();
    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(),
        targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)), () -> {
          checks.incrementAndGet();
          return false;
        });
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(clock.sleeps).isEmpty();
    // start, gate 1, after failure, after backoff, gate 2
    assertThat(checks).hasValue(5);
  }

  @Test
  void aSleeperThatDoesNotAdvanceTheClockStillEndsTheWait() {
    ResilientRunner runner = ResilientRunner.builder().clock(clock).sleeper(duration -> { }).build();
    ResilientExecutionResult<String> result = runner.runSync(policy("a", "b").backoff(Duration.ofSeconds(1)).build(),
        targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
  }

  @Test
  void aThrowingListenerDoesNotChangeTheRun() {
    ResilientRunner runner = ResilientRunner.builder().clock(clock).sleeper(clock)
        .listener((policy, record) -> {
          throw new IllegalStateException(CANARY);
        }).build();
    ResilientExecutionResult<String> result = runner.runSync(policy("a", "b").build(),
        targets(failing("a", FailureKind.TRANSIENT), returning("b", "x", Duration.ZERO)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.attempts()).hasSize(2);
  }

  @Test
  void perRunListenerHearsEveryAttemptAsItEnds() {
    List<String> order = new ArrayList<>();
    SyncExecutionTarget<String> a = SyncExecutionTarget.of("a", String.class, context -> {
      order.add("call a");
      throw new AttemptError(FailureKind.TRANSIENT);
    });
    SyncExecutionTarget<String> b = SyncExecutionTarget.of("b", String.class, context -> {
      order.add("call b");
      return "x";
    });
    runner().runSync(policy("a", "b").build(), targets(a, b), null, new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
        order.add("record " + record.targetId() + " " + record.outcome().wireValue());
      }

      @Override
      public void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {
        order.add("finished " + result.outcome().wireValue());
      }
    });
    assertThat(order).containsExactly("call a", "record a failed", "call b", "record b succeeded",
        "finished succeeded");
  }

  @Test
  void resultsAndRecordsEnforceTheReferenceCrossFieldRules() {
    Duration s = Duration.ofSeconds(1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AttemptRecord(1, "a", ExecutionMode.LIVE, s,
        Duration.ZERO, s, true, AttemptOutcome.FAILED, FailureKind.TIMEOUT, MachineCodes.TIMEOUT, Duration.ZERO))
        .hasMessage("attempt cannot end before it starts");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AttemptRecord(1, "a", ExecutionMode.LIVE, s, s, s,
        true, AttemptOutcome.SUCCEEDED, FailureKind.TIMEOUT, null, Duration.ZERO))
        .hasMessage("successful attempt cannot carry failure fields");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AttemptRecord(1, "a", ExecutionMode.LIVE, s, s, s,
        true, AttemptOutcome.FAILED, FailureKind.TIMEOUT, null, Duration.ZERO))
        .hasMessage("failed attempt requires normalized failure fields");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResilientExecutionResult<>(
        ExecutionOutcome.SUCCEEDED, "x", List.of(), null, ExecutionMode.LIVE, null, null, s))
        .hasMessage("success requires selected_target_id");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResilientExecutionResult<>(
        ExecutionOutcome.SUCCEEDED, "x", List.of(), "a", ExecutionMode.NONE, null, null, s))
        .hasMessage("success requires truthful execution_mode");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResilientExecutionResult<>(
        ExecutionOutcome.SUCCEEDED, "x", List.of(), "a", ExecutionMode.LIVE, null, MachineCodes.TIMEOUT, s))
        .hasMessage("success cannot carry terminal failure fields");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResilientExecutionResult<>(
        ExecutionOutcome.EXHAUSTED, "x", List.of(), null, ExecutionMode.NONE, null, MachineCodes.TIMEOUT, s))
        .hasMessage("non-success result cannot carry a value");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResilientExecutionResult<>(
        ExecutionOutcome.EXHAUSTED, null, List.of(), null, ExecutionMode.NONE, FailureKind.TIMEOUT, null, s))
        .hasMessage("non-success result requires machine_code");
  }

  @Test
  void targetsAreValidatedAtConstruction() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SyncExecutionTarget.of("bad id", String.class, c -> ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("target id must match");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SyncExecutionTarget.of("a", int.class, c -> 1))
        .hasMessageContaining("reference type");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SyncExecutionTarget.of("a", String.class, null))
        .hasMessage("invocation must not be null");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> SyncExecutionTarget.of("a", String.class, c -> "").withExecutionMode(ExecutionMode.NONE))
        .hasMessage("executionMode must be LIVE or SIMULATED");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> SyncExecutionTarget.of("a", String.class, c -> "").withInternalMaxAttempts(0))
        .hasMessage("internalMaxAttempts must be at least 1");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofSeconds(-1)))
        .hasMessage("retryAfter cannot be negative");
  }

  /** A target that reports {@code usage}, then fails with {@code kind} or, when it is null, returns "ok". */
  private SyncExecutionTarget<String> reporting(String id, ModelUsage usage, FailureKind kind) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      calls.add(context);
      context.reportUsage(usage);
      clock.advance(Duration.ofSeconds(1));
      if (kind != null) {
        throw new AttemptError(kind);
      }
      return "ok";
    });
  }

  @Test
  void whatATargetReportsItUsedIsInItsAttemptRecordAndTheRunAddsItUp() {
    ModelUsage first = new ModelUsage("ollama", "llama-m", "llama-m", 12L, null);
    ModelUsage second = new ModelUsage("openai", "gpt-m", "gpt-m-2026", 30L, 8L);

    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").build(), targets(
        reporting("a", first, FailureKind.TRANSIENT), reporting("b", second, null)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.attempts()).extracting(AttemptRecord::usage).containsExactly(first, second);
    assertThat(result.tokens()).isEqualTo(50);
    assertThat(heard).extracting(AttemptRecord::usage).containsExactly(first, second);
  }

  @Test
  void anAttemptThatReportsNothingHasNoUsageAndCountsNoTokens() {
    ResilientExecutionResult<String> result = runner().runSync(policy("a").build(),
        targets(returning("a", "ok", Duration.ofMillis(5))));

    assertThat(result.attempts().get(0).usage()).isNull();
    assertThat(result.tokens()).isZero();
  }

  @Test
  void noAttemptStartsOnceTheTokenBudgetIsSpent() {
    ModelUsage spent = new ModelUsage(null, null, null, 40L, 10L);

    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b", "c").maxTokens(50L).build(),
        targets(reporting("a", spent, FailureKind.TRANSIENT), returning("b", "never", Duration.ZERO),
            returning("c", "never", Duration.ZERO)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.BUDGET_EXHAUSTED);
    assertThat(result.failureKind()).isNull();
    assertThat(result.attempts()).hasSize(1);
    assertThat(calls).extracting(AttemptContext::targetId).containsExactly("a");
  }

  @Test
  void aBudgetLeftAfterAnAttemptLetsTheNextOneStart() {
    ModelUsage spent = new ModelUsage(null, null, null, 40L, 9L);

    ResilientExecutionResult<String> result = runner().runSync(policy("a", "b").maxTokens(50L).build(),
        targets(reporting("a", spent, FailureKind.TRANSIENT), returning("b", "ok", Duration.ZERO)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("b");
  }

  @Test
  void aTokenBudgetMustBePositive() {
    assertThatThrownBy(() -> policy("a").maxTokens(0L).build()).isInstanceOf(InvalidPolicyException.class)
        .hasMessageContaining("max_tokens must be greater than 0");
  }
}
