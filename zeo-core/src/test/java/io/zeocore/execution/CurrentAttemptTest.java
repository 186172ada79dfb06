package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class CurrentAttemptTest {

  private final List<Optional<CurrentAttempt>> seen = new CopyOnWriteArrayList<>();

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(20))
        .attemptTimeout(Duration.ofSeconds(8)).attemptTargets(plan);
  }

  private SyncExecutionTarget<String> looking(String id, boolean fail) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      seen.add(CurrentAttempt.get());
      if (fail) {
        throw new java.net.ConnectException("refused");
      }
      return "ok";
    });
  }

  @Test
  void aSyncTargetSeesItsOwnAttemptWithItsTimeoutLeftAndNothingOutsideTheCall() {
    ResilientRunner runner = ResilientRunner.create(); // no listeners: the runner sets it anyway
    assertThat(CurrentAttempt.get()).isEmpty();

    ResilientExecutionResult<String> result = runner.runSync(policy("primary", "fallback").build(),
        Map.of("primary", looking("primary", true), "fallback", looking("fallback", false)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(seen).hasSize(2).allSatisfy(attempt -> assertThat(attempt).isPresent());
    CurrentAttempt first = seen.get(0).orElseThrow();
    CurrentAttempt second = seen.get(1).orElseThrow();
    assertThat(first.context().targetId()).isEqualTo("primary");
    assertThat(first.context().attemptNumber()).isEqualTo(1);
    assertThat(second.context().targetId()).isEqualTo("fallback");
    assertThat(second.context().attemptNumber()).isEqualTo(2);
    assertThat(first.context().timeout()).isEqualTo(Duration.ofSeconds(8));
    long leftAtFirstCall = first.deadlineNanos() - System.nanoTime();
    assertThat(leftAtFirstCall).isLessThanOrEqualTo(Duration.ofSeconds(8).toNanos());
    assertThat(CurrentAttempt.get()).isEmpty();
  }

  @Test
  void theAttemptTimeoutIsClippedByWhatIsLeftOfTheRun() {
    ResilientRunner runner = ResilientRunner.create();

    runner.runSync(ExecutionPolicy.builder().totalTimeout(Duration.ofMillis(1500)).attemptTimeout(Duration.ofSeconds(8))
        .attemptTargets("primary").build(), Map.of("primary", looking("primary", false)));

    CurrentAttempt attempt = seen.get(0).orElseThrow();
    assertThat(attempt.context().timeout()).isLessThanOrEqualTo(Duration.ofMillis(1500));
    assertThat(attempt.remaining()).isLessThanOrEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void anEnforcedAttemptSeesItOnTheWorkerThread() {
    ResilientRunner runner = ResilientRunner.create();

    runner.runSync(policy("primary").deadline(DeadlineMode.ENFORCED).build(),
        Map.of("primary", looking("primary", false)));

    assertThat(seen).singleElement().satisfies(attempt -> assertThat(attempt).isPresent());
  }

  @Test
  void anAsyncTargetSeesItWhileInvokedAndThePreviousValueIsRestored() throws Exception {
    ResilientRunner runner = ResilientRunner.create();
    AsyncExecutionTarget<String> target = AsyncExecutionTarget.of("primary", String.class, context -> {
      seen.add(CurrentAttempt.get());
      return CompletableFuture.completedFuture("ok");
    });

    runner.runAsync(policy("primary").build(), Map.of("primary", target)).get();

    assertThat(seen).singleElement().satisfies(attempt ->
        assertThat(attempt.orElseThrow().context().targetId()).isEqualTo("primary"));
    assertThat(CurrentAttempt.get()).isEmpty();
  }

  @Test
  void anExpiredAttemptHasNothingLeft() throws Exception {
    ResilientRunner runner = ResilientRunner.create();
    runner.runSync(ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(1)).attemptTimeout(Duration.ofMillis(50))
        .attemptTargets("slow").build(), Map.of("slow", SyncExecutionTarget.of("slow", String.class, context -> {
          Thread.sleep(200);
          seen.add(CurrentAttempt.get());
          return "late";
        })));

    CurrentAttempt attempt = seen.get(0).orElseThrow();
    assertThat(attempt.expired()).isTrue();
    assertThat(attempt.remaining()).isEqualTo(Duration.ZERO);
  }
}
