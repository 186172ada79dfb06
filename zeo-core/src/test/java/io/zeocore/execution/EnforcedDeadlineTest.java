package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link DeadlineMode#ENFORCED}: the caller stops waiting even when the target ignores its timeout. */
class EnforcedDeadlineTest {

  /** Generous: the machine may be busy. The claim is "returns near the deadline", not "returns fast". */
  private static final Duration SLACK = Duration.ofSeconds(3);

  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseAbandonedWork() {
    release.countDown();
  }

  /** Ignores its timeout and every interrupt until the test ends. */
  private SyncExecutionTarget<String> stubborn(String id) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      while (true) {
        try {
          if (release.await(10, TimeUnit.SECONDS)) {
            return "late answer";
          }
        } catch (InterruptedException ignored) {
          // a target that ignores interrupts: only abandonment ends the attempt for the caller
        }
      }
    });
  }

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(30)).attemptTimeout(Duration.ofMillis(300))
        .attemptTargets(plan).deadline(DeadlineMode.ENFORCED);
  }

  @Test
  void returnsAtTheDeadlineWhileTheTargetIgnoresItsTimeout() {
    long start = System.nanoTime();

    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("stuck").build(),
        Map.of("stuck", stubborn("stuck")));

    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(result.attempts()).singleElement().satisfies(attempt -> {
      assertThat(attempt.failureKind()).isEqualTo(FailureKind.TIMEOUT);
      assertThat(attempt.timeout()).isEqualTo(Duration.ofMillis(300));
    });
    assertThat(took).isLessThan(Duration.ofMillis(300).plus(SLACK));
  }

  @Test
  void fallsBackAfterAnAbandonedAttempt() {
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("stuck", "quick").build(),
        Map.of("stuck", stubborn("stuck"), "quick", SyncExecutionTarget.of("quick", String.class, c -> "quick")));

    assertThat(result.value()).isEqualTo("quick");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TIMEOUT);
  }

  @Test
  void totalBudgetClipsTheEnforcedWait() {
    long start = System.nanoTime();

    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("stuck")
        .totalTimeout(Duration.ofMillis(200)).attemptTimeout(Duration.ofSeconds(60)).build(),
        Map.of("stuck", stubborn("stuck")));

    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(200).plus(SLACK));
  }

  @Test
  void hostCancellationStopsTheWait() {
    SettableCancellationToken token = new SettableCancellationToken();
    Thread canceller = new Thread(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException interrupted) {
        return;
      }
      token.cancel();
    });
    canceller.start();

    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("stuck")
        .attemptTimeout(Duration.ofSeconds(60)).build(), Map.of("stuck", stubborn("stuck")), token);

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
  }

  @Test
  void targetExceptionsAreClassifiedAsOnTheCallingThread() {
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("refused", "quick").build(),
        Map.of("refused", SyncExecutionTarget.of("refused", String.class, c -> {
          throw new java.net.ConnectException();
        }), "quick", SyncExecutionTarget.of("quick", String.class, c -> "quick")));

    assertThat(result.value()).isEqualTo("quick");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
  }

  /** Ignores every interrupt until the test releases it (at most 20 s), counting its calls. */
  private SyncExecutionTarget<String> ignoresInterrupts(String id, AtomicInteger calls) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      calls.incrementAndGet();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < until) {
        try {
          if (release.await(until - System.nanoTime(), TimeUnit.NANOSECONDS)) {
            break;
          }
        } catch (InterruptedException ignored) {
          // ignores the runner's interrupt: abandoned, it keeps its worker until released
        }
      }
      return "late answer";
    });
  }

  private static SyncExecutionTarget<String> answersAtOnce(String id, AtomicInteger calls) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      calls.incrementAndGet();
      return "answer";
    });
  }

  /** Waits (generously) until every abandoned call of {@code targetId} has returned: no worker leaks across tests. */
  private static void awaitAbandonedReturned(String targetId) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (ResilientRunner.AbandonedCalls.running(targetId) > 0 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(ResilientRunner.AbandonedCalls.running(targetId)).isZero();
  }

  @Test
  void abandonedWorkOfOnePolicyNeverStarvesTheAttemptsOfAnother() throws Exception {
    ResilientRunner runner = ResilientRunner.create();
    AtomicInteger stuckCalls = new AtomicInteger();
    AtomicInteger healthyCalls = new AtomicInteger();
    ExecutionPolicy stuckPolicy = policy("stuck-provider").name("stuck").attemptTimeout(Duration.ofMillis(200)).build();
    ExecutionPolicy healthyPolicy = policy("healthy-provider").name("healthy").attemptTimeout(Duration.ofSeconds(1))
        .build();
    Map<String, SyncExecutionTarget<String>> stuckTargets =
        Map.of("stuck-provider", ignoresInterrupts("stuck-provider", stuckCalls));
    Map<String, SyncExecutionTarget<String>> healthyTargets =
        Map.of("healthy-provider", answersAtOnce("healthy-provider", healthyCalls));

    ExecutorService callers = Executors.newFixedThreadPool(24);
    try {
      List<Future<ResilientExecutionResult<String>>> stuckRuns = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        stuckRuns.add(callers.submit(() -> runner.runSync(stuckPolicy, stuckTargets)));
      }
      for (Future<ResilientExecutionResult<String>> run : stuckRuns) {
        assertThat(run.get(60, TimeUnit.SECONDS)).satisfies(result -> {
          assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
          assertThat(result.machineCode()).isEqualTo(MachineCodes.TIMEOUT);
          assertThat(result.attempts()).singleElement().satisfies(attempt -> {
            assertThat(attempt.failureKind()).isEqualTo(FailureKind.TIMEOUT);
            assertThat(attempt.dispatchStarted()).isTrue();
          });
        });
      }
      assertThat(stuckCalls).hasValue(24);
      assertThat(ResilientRunner.AbandonedCalls.running("stuck-provider")).as("abandoned, still running").isEqualTo(24);

      for (int i = 0; i < 10; i++) {
        ResilientExecutionResult<String> result = runner.runSync(healthyPolicy, healthyTargets);

        assertThat(result.outcome()).as("healthy run %d", i + 1).isEqualTo(ExecutionOutcome.SUCCEEDED);
        assertThat(result.value()).isEqualTo("answer");
      }
      assertThat(healthyCalls).hasValue(10);
    } finally {
      release.countDown();
      callers.shutdownNow();
    }
    awaitAbandonedReturned("stuck-provider");
  }

  @Test
  void aTargetHoldingTheMostAbandonedCallsIsNotStartedAndThePlanFallsBack() throws Exception {
    ResilientRunner runner = ResilientRunner.builder().maxAbandonedPerTarget(2).build();
    AtomicInteger hangingCalls = new AtomicInteger();
    AtomicInteger quickCalls = new AtomicInteger();
    SyncExecutionTarget<String> hanging = ignoresInterrupts("hangs-often", hangingCalls);
    ExecutionPolicy alone = policy("hangs-often").attemptTimeout(Duration.ofMillis(200)).build();
    try {
      for (int i = 0; i < 2; i++) {
        assertThat(runner.runSync(alone, Map.of("hangs-often", hanging)).machineCode())
            .isEqualTo(MachineCodes.TIMEOUT);
      }

      ResilientExecutionResult<String> notStarted = runner.runSync(alone, Map.of("hangs-often", hanging));
      ResilientExecutionResult<String> fellBack = runner.runSync(
          policy("hangs-often", "quick").attemptTimeout(Duration.ofMillis(200)).build(),
          Map.of("hangs-often", hanging, "quick", answersAtOnce("quick", quickCalls)));

      assertThat(notStarted.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
      assertThat(notStarted.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(notStarted.machineCode()).isEqualTo(MachineCodes.NOT_STARTED);
      assertThat(notStarted.attempts()).singleElement().satisfies(attempt -> {
        assertThat(attempt.machineCode()).isEqualTo(MachineCodes.NOT_STARTED);
        assertThat(attempt.dispatchStarted()).isFalse();
      });
      assertThat(fellBack.value()).isEqualTo("answer");
      assertThat(fellBack.attempts().get(0).machineCode()).isEqualTo(MachineCodes.NOT_STARTED);
      assertThat(hangingCalls).as("never called beyond the two abandoned calls").hasValue(2);
      assertThat(quickCalls).hasValue(1);
    } finally {
      release.countDown();
    }
    awaitAbandonedReturned("hangs-often");

    ResilientExecutionResult<String> again = runner.runSync(alone, Map.of("hangs-often", hanging));
    assertThat(again.value()).as("started again once its abandoned calls returned").isEqualTo("late answer");
    assertThat(hangingCalls).hasValue(3);
  }

  @Test
  void anAttemptNoWorkerStartedBeforeItsDeadlineIsNeverCalled() throws Exception {
    ExecutorService oneBusyWorker = Executors.newSingleThreadExecutor();
    CountDownLatch blockerRunning = new CountDownLatch(1);
    CountDownLatch releaseBlocker = new CountDownLatch(1);
    oneBusyWorker.submit(() -> {
      blockerRunning.countDown();
      releaseBlocker.await();
      return null;
    });
    blockerRunning.await();
    AtomicInteger queuedCalls = new AtomicInteger();
    AtomicInteger quickCalls = new AtomicInteger();
    ResilientRunner runner = ResilientRunner.builder().deadlineWorkers(oneBusyWorker).build();
    try {
      ResilientExecutionResult<String> result = runner.runSync(
          policy("queued", "quick").attemptTimeout(Duration.ofMillis(200)).build(),
          Map.of("queued", answersAtOnce("queued", queuedCalls), "quick", SyncExecutionTarget.of("quick",
              String.class, context -> {
                quickCalls.incrementAndGet();
                return "quick";
              })));

      AttemptRecord first = result.attempts().get(0);
      assertThat(first.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(first.machineCode()).isEqualTo(MachineCodes.NOT_STARTED);
      assertThat(first.dispatchStarted()).isFalse();
      assertThat(result.attempts().get(1).machineCode()).as("the fallback queued behind the same busy worker")
          .isEqualTo(MachineCodes.NOT_STARTED);
    } finally {
      releaseBlocker.countDown();
      oneBusyWorker.shutdown();
      assertThat(oneBusyWorker.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(queuedCalls).as("cancelled before it started: never called, not even late").hasValue(0);
    assertThat(quickCalls).hasValue(0);
  }
}
