package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
}
