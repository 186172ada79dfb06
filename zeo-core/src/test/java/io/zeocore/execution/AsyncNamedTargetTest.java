package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AsyncNamedTargetTest {

  private final CompletableFuture<String> neverAnswered = new CompletableFuture<>();

  private final NamedTarget<String, String> hanging = NamedTarget.ofAsync("hanging", String.class, String.class,
      (input, context) -> neverAnswered);
  private final NamedTarget<String, String> echo = NamedTarget.ofAsync("echo", String.class, String.class,
      (input, context) -> CompletableFuture.completedFuture("echo " + input));
  private final NamedTarget<String, String> syncFallback = NamedTarget.of("sync-fallback", String.class, String.class,
      (input, context) -> "sync " + input);

  private static ExecutionPolicy policy(String... plan) {
    return ExecutionPolicy.builder().name("p").totalTimeout(Duration.ofSeconds(30))
        .attemptTimeout(Duration.ofMillis(300)).attemptTargets(plan).build();
  }

  private ZeoCoreExecutions executions(ExecutionPolicy policy) {
    return new ZeoCoreExecutions(ResilientRunner.create(), ExecutionPolicies.of(Map.of("p", policy)),
        TargetRegistry.of(List.of(hanging, echo, syncFallback)));
  }

  @Test
  void anAsyncTargetInASyncRunIsCancelledAtItsAttemptTimeoutWithoutAnEnforcedDeadline() {
    ResilientExecutionResult<String> result = executions(policy("hanging", "sync-fallback")).run("p", "x",
        String.class);

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo("sync x");
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind).containsExactly(FailureKind.TIMEOUT, null);
    assertThat(result.attempts().get(0).duration()).isGreaterThanOrEqualTo(Duration.ofMillis(290))
        .isLessThan(Duration.ofSeconds(15));
    assertThat(neverAnswered).isCancelled();
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void anAllAsyncPlanRunsAsynchronouslyAndTimesOutThroughTheRunner() throws Exception {
    ZeoCoreExecutions executions = executions(policy("hanging", "echo"));

    assertThat(executions.targets().isAsyncPlan(executions.policies().get("p"))).isTrue();
    ResilientExecutionResult<String> result = executions.runAsync("p", "x", String.class).get(20, TimeUnit.SECONDS);

    assertThat(result.value()).isEqualTo("echo x");
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind).containsExactly(FailureKind.TIMEOUT, null);
    assertThat(neverAnswered).isCancelled();
  }

  @Test
  void cancellingTheAsyncRunCancelsTheAttemptInFlight() throws Exception {
    CompletableFuture<ResilientExecutionResult<String>> run = executions(policy("hanging", "echo"))
        .runAsync("p", "x", String.class);

    run.cancel(true);

    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!neverAnswered.isDone() && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(neverAnswered).isCancelled();
  }

  @Test
  void aPlanWithASynchronousTargetIsNotAnAsyncPlanAndCannotRunAsynchronously() {
    ZeoCoreExecutions executions = executions(policy("echo", "sync-fallback"));

    assertThat(executions.targets().isAsyncPlan(executions.policies().get("p"))).isFalse();
    assertThatThrownBy(() -> executions.runAsync("p", "x", String.class))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'sync-fallback' is synchronous");
    assertThatThrownBy(() -> syncFallback.bindAsync("x")).isInstanceOf(IllegalStateException.class);
    assertThat(echo.isAsync()).isTrue();
    assertThat(echo.withExecutionMode(ExecutionMode.SIMULATED).isAsync()).isTrue();
  }
}
