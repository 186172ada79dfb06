package io.zeocore.execution;

import static io.zeocore.execution.TargetMaps.targets;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResilientRunnerAsyncTest {

  private static final String CANARY = "canary-async-9b1c-provider-text";

  private final List<AttemptRecord> heard = new CopyOnWriteArrayList<>();
  private final ResilientRunner runner = ResilientRunner.builder()
      .listener((policy, record) -> heard.add(record))
      .build();

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(10))
        .attemptTimeout(Duration.ofSeconds(5))
        .attemptTargets(plan);
  }

  private static AsyncExecutionTarget<String> completed(String id, String value) {
    return AsyncExecutionTarget.of(id, String.class, context -> CompletableFuture.completedFuture(value));
  }

  /** A target that completes with "x" and counts its calls in {@code calls}. */
  private static AsyncExecutionTarget<String> counting(String id, AtomicInteger calls) {
    return AsyncExecutionTarget.of(id, String.class, context -> {
      calls.incrementAndGet();
      return CompletableFuture.completedFuture("x");
    });
  }

  private static AsyncExecutionTarget<String> failed(String id, Throwable error) {
    return AsyncExecutionTarget.of(id, String.class, context -> CompletableFuture.failedFuture(error));
  }

  private static <T> ResilientExecutionResult<T> await(CompletableFuture<ResilientExecutionResult<T>> future)
      throws Exception {
    return future.get(20, TimeUnit.SECONDS);
  }

  @Test
  void fallsBackToTheNextPlannedTarget() throws Exception {
    ResilientExecutionResult<String> result = await(runner.runAsync(policy("a", "b").build(),
        targets(failed("a", new AttemptError(FailureKind.TRANSIENT)), completed("b", "second"))));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo("second");
    assertThat(result.selectedTargetId()).isEqualTo("b");
    assertThat(result.attempts()).extracting(AttemptRecord::outcome)
        .containsExactly(AttemptOutcome.FAILED, AttemptOutcome.SUCCEEDED);
    assertThat(heard).isEqualTo(result.attempts());
  }

  @Test
  void enforcesTheAttemptTimeoutOnATargetThatNeverCompletes() throws Exception {
    CompletableFuture<String> hanging = new CompletableFuture<>();
    AsyncExecutionTarget<String> never = AsyncExecutionTarget.of("never", String.class, context -> hanging);
    ExecutionPolicy policy = policy("never", "b").attemptTimeout(Duration.ofMillis(150)).build();
    ResilientExecutionResult<String> result = await(runner.runAsync(policy, targets(never, completed("b", "ok"))));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    AttemptRecord timedOut = result.attempts().get(0);
    assertThat(timedOut.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(timedOut.machineCode()).isEqualTo(MachineCodes.TIMEOUT);
    assertThat(timedOut.timeout()).isEqualTo(Duration.ofMillis(150));
    assertThat(timedOut.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(140)).isLessThan(Duration.ofSeconds(5));
    assertThat(hanging).isCancelled();
  }

  @Test
  void aHangingOnlyTargetExhaustsWithTimeout() throws Exception {
    AsyncExecutionTarget<String> never =
        AsyncExecutionTarget.of("never", String.class, context -> new CompletableFuture<>());
    ResilientExecutionResult<String> result = await(runner.runAsync(
        policy("never").attemptTimeout(Duration.ofMillis(50)).build(), targets(never)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
  }

  @Test
  void attemptTimeoutIsClippedByTheTotalBudget() throws Exception {
    List<Duration> timeouts = new CopyOnWriteArrayList<>();
    AsyncExecutionTarget<String> never = AsyncExecutionTarget.of("never", String.class, context -> {
      timeouts.add(context.timeout());
      return new CompletableFuture<>();
    });
    ResilientExecutionResult<String> result = await(runner.runAsync(policy("never", "never")
        .totalTimeout(Duration.ofMillis(300)).attemptTimeout(Duration.ofMillis(200)).build(), targets(never)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(timeouts).hasSize(2);
    assertThat(timeouts.get(0)).isEqualTo(Duration.ofMillis(200));
    assertThat(timeouts.get(1)).isLessThanOrEqualTo(Duration.ofMillis(100)).isPositive();
  }

  @Test
  void waitsTheBackoffOnTheSchedulerAndRecordsIt() throws Exception {
    ResilientExecutionResult<String> result = await(runner.runAsync(
        policy("a", "b").backoff(Duration.ofMillis(200)).build(),
        targets(failed("a", new AttemptError(FailureKind.RATE_LIMIT)), completed("b", "ok"))));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.attempts().get(0).backoffBeforeNext()).isEqualTo(Duration.ofMillis(200));
    assertThat(result.attempts().get(1).startedAfter().minus(result.attempts().get(0).endedAfter()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(190));
  }

  @Test
  void cancellationDuringBackoffEndsTheRun() throws Exception {
    SettableCancellationToken token = new SettableCancellationToken();
    AtomicInteger secondCalls = new AtomicInteger();
    AsyncExecutionTarget<String> b = AsyncExecutionTarget.of("b", String.class, context -> {
      secondCalls.incrementAndGet();
      return CompletableFuture.completedFuture("x");
    });
    CompletableFuture<ResilientExecutionResult<String>> future = runner.runAsync(
        policy("a", "b").backoff(Duration.ofSeconds(8)).build(),
        targets(failed("a", new AttemptError(FailureKind.TRANSIENT)), b), token);
    Thread.sleep(150);
    token.cancel();
    ResilientExecutionResult<String> result = await(future);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.attempts()).hasSize(1);
    assertThat(result.totalElapsed()).isLessThan(Duration.ofSeconds(5));
    assertThat(secondCalls).hasValue(0);
  }

  @Test
  void cancelledTokenBeforeStartMakesNoCall() throws Exception {
    SettableCancellationToken token = new SettableCancellationToken();
    token.cancel();
    AtomicInteger calls = new AtomicInteger();
    AsyncExecutionTarget<String> a = counting("a", calls);
    ResilientExecutionResult<String> result = await(runner.runAsync(policy("a").build(), targets(a), token));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(calls).hasValue(0);
  }

  @Test
  void cancellingTheReturnedFutureCancelsTheAttemptInFlight() throws Exception {
    CompletableFuture<String> hanging = new CompletableFuture<>();
    CompletableFuture<ResilientExecutionResult<String>> future = runner.runAsync(policy("a").build(),
        targets(AsyncExecutionTarget.of("a", String.class, context -> hanging)));
    future.cancel(true);
    assertThat(hanging).isCancelled();
  }

  @Test
  void refusesEffectfulPolicyBeforeAnyCall() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AsyncExecutionTarget<String> a = counting("a", calls);
    ResilientExecutionResult<String> result = await(runner.runAsync(
        policy("a").operationMode(OperationMode.EFFECTFUL).build(), targets(a)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.EFFECTFUL_REQUIRES_PERSISTENCE);
    assertThat(calls).hasValue(0);
  }

  @Test
  void refusesSimulatedTargetsUnlessAllowedAndLabelsThem() throws Exception {
    AsyncExecutionTarget<String> sim = completed("sim", "fake").withExecutionMode(ExecutionMode.SIMULATED);
    assertThat(await(runner.runAsync(policy("sim").build(), targets(sim))).machineCode())
        .isEqualTo(MachineCodes.SIMULATION_NOT_ALLOWED);
    ResilientExecutionResult<String> allowed =
        await(runner.runAsync(policy("sim").allowSimulated(true).build(), targets(sim)));
    assertThat(allowed.executionMode()).isEqualTo(ExecutionMode.SIMULATED);
  }

  @Test
  void classifiesFailuresThrownOrCompletedExceptionally() throws Exception {
    AsyncExecutionTarget<String> throwsAtOnce = AsyncExecutionTarget.of("t", String.class, context -> {
      throw new AttemptError(FailureKind.TRANSIENT, false);
    });
    AsyncExecutionTarget<String> wrapped =
        failed("w", new CompletionException(new AttemptError(FailureKind.AUTHORIZATION)));
    AsyncExecutionTarget<String> other = failed("o", new IllegalStateException(CANARY));

    ResilientExecutionResult<String> result = await(runner.runAsync(policy("t", "o").build(),
        targets(throwsAtOnce, other)));
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind)
        .containsExactly(FailureKind.TRANSIENT, FailureKind.PERMANENT);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.toString() + result.attempts() + heard).doesNotContain(CANARY);

    ResilientExecutionResult<String> refused = await(runner.runAsync(policy("w").build(), targets(wrapped)));
    assertThat(refused.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(refused.failureKind()).isEqualTo(FailureKind.AUTHORIZATION);
  }

  @Test
  void valueOfTheWrongTypeIsMalformed() throws Exception {
    @SuppressWarnings({"unchecked", "rawtypes"})
    AsyncExecutionTarget<String> wrong = AsyncExecutionTarget.of("a", String.class,
        (AsyncExecutionTarget.Invocation) context -> CompletableFuture.completedFuture(42));
    ResilientExecutionResult<String> result = await(runner.runAsync(policy("a").build(), targets(wrong)));
    assertThat(result.failureKind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
  }

  @Test
  void preflightFailureMakesZeroCalls() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AsyncExecutionTarget<String> a = counting("a", calls).withPreflightFailure(FailureKind.VALIDATION);
    ResilientExecutionResult<String> result = await(runner.runAsync(policy("a").build(), targets(a)));
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.VALIDATION);
    assertThat(calls).hasValue(0);
  }

  @Test
  void thousandsOfConcurrentRunsNeedNoThreadPerRun() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    // one thread completes every target after 100 ms (CompletableFuture's default async executor would start a
    // thread per task on a 2-core machine, which is what this test must not measure)
    java.util.concurrent.ScheduledExecutorService completer =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    AsyncExecutionTarget<String> slow = AsyncExecutionTarget.of("slow", String.class, context -> {
      CompletableFuture<String> reply = new CompletableFuture<>();
      completer.schedule(() -> reply.complete("done"), 100, TimeUnit.MILLISECONDS);
      return reply;
    });
    ExecutionPolicy policy = policy("slow").build();
    int before = threads.getThreadCount();
    threads.resetPeakThreadCount();
    List<CompletableFuture<ResilientExecutionResult<String>>> runs = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      runs.add(runner.runAsync(policy, targets(slow)));
    }
    CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    assertThat(runs).allSatisfy(run -> assertThat(run.join().outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED));
    completer.shutdown();
    assertThat(threads.getPeakThreadCount() - before).as("threads added for 5 000 runs").isLessThan(16);
  }

  @Test
  void aShutDownSchedulerFailsTheRunInsteadOfLosingIt() {
    java.util.concurrent.ScheduledExecutorService scheduler = java.util.concurrent.Executors.newScheduledThreadPool(1);
    scheduler.shutdownNow();
    CompletableFuture<String> hanging = new CompletableFuture<>();
    CompletableFuture<ResilientExecutionResult<String>> future = ResilientRunner.builder().scheduler(scheduler).build()
        .runAsync(policy("a").build(), targets(AsyncExecutionTarget.of("a", String.class, context -> hanging)));
    assertThat(future).isCompletedExceptionally();
    assertThat(hanging).isCancelled();
  }
}
