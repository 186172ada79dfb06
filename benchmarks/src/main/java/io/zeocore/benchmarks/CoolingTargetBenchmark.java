package io.zeocore.benchmarks;

import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.TargetCooldown;
import io.zeocore.execution.TargetHealth;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Item 12: what a cooling target costs a run (issue 38). {@code coolingFirst} runs the plan
 * {@code [cooling, secondary]} whose first target cools for a day: the gate skips it (a {@code SKIPPED} record, no
 * call) and the secondary answers. {@code secondOnly} runs the plan {@code [secondary]} on the same runner, the
 * floor: the run that starts at the second target. {@code withoutTargetHealth} runs {@code [secondary]} on a runner
 * without target health: what consulting it costs a run whose target is not cooling. Sync, and async with a target
 * that answers at once.
 */
public class CoolingTargetBenchmark extends SuiteSettings {

  private static final String VALUE = "value";

  private ResilientRunner runner;
  private ResilientRunner plain;
  private TargetHealth health;
  private ExecutionPolicy coolingFirst;
  private ExecutionPolicy secondOnly;
  private Map<String, SyncExecutionTarget<String>> syncTargets;
  private Map<String, AsyncExecutionTarget<String>> asyncTargets;

  @Setup
  public void setUp() {
    health = TargetHealth.builder()
        .cooldown("cooling", TargetCooldown.DEFAULT.withMaxRetryAfter(Duration.ofDays(2)))
        .build();
    runner = ResilientRunner.builder().targetHealth(health).build();
    plain = ResilientRunner.create();
    coolingFirst = Contenders.zeoCorePolicy("cooling", "secondary");
    secondOnly = Contenders.zeoCorePolicy("secondary");
    syncTargets = Map.of(
        "cooling", SyncExecutionTarget.of("cooling", String.class, context -> {
          throw new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofDays(1));
        }),
        "secondary", SyncExecutionTarget.of("secondary", String.class, context -> VALUE));
    asyncTargets = Map.of(
        "cooling", AsyncExecutionTarget.of("cooling", String.class,
            context -> CompletableFuture.failedFuture(new IllegalStateException("a cooling target was called"))),
        "secondary", AsyncExecutionTarget.of("secondary", String.class,
            context -> CompletableFuture.completedFuture(VALUE)));
    // the first run meets the 429 and cools the target for a day
    ResilientExecutionResult<String> cooled = runner.runSync(coolingFirst, syncTargets);
    check(cooled.succeeded() && cooled.attempts().get(0).failureKind() == FailureKind.RATE_LIMIT,
        "the first run did not meet the rate limit");
    ResilientExecutionResult<String> skipped = runner.runSync(coolingFirst, syncTargets);
    check(skipped.succeeded() && skipped.attempts().get(0).outcome() == AttemptOutcome.SKIPPED,
        "the cooling target was not skipped");
    check(runner.runAsync(coolingFirst, asyncTargets).join().attempts().get(0).outcome() == AttemptOutcome.SKIPPED,
        "the cooling target was not skipped by an async run");
  }

  @TearDown
  public void tearDown() {
    health.close();
  }

  private static void check(boolean condition, String failure) {
    if (!condition) {
      throw new IllegalStateException(failure);
    }
  }

  @Benchmark
  public ResilientExecutionResult<String> syncCoolingFirst() {
    return runner.runSync(coolingFirst, syncTargets);
  }

  @Benchmark
  public ResilientExecutionResult<String> syncSecondOnly() {
    return runner.runSync(secondOnly, syncTargets);
  }

  @Benchmark
  public ResilientExecutionResult<String> syncWithoutTargetHealth() {
    return plain.runSync(secondOnly, syncTargets);
  }

  @Benchmark
  public ResilientExecutionResult<String> asyncCoolingFirst() {
    return runner.runAsync(coolingFirst, asyncTargets).join();
  }

  @Benchmark
  public ResilientExecutionResult<String> asyncSecondOnly() {
    return runner.runAsync(secondOnly, asyncTargets).join();
  }

  @Benchmark
  public ResilientExecutionResult<String> asyncWithoutTargetHealth() {
    return plain.runAsync(secondOnly, asyncTargets).join();
  }
}
