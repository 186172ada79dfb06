package io.zeocore.benchmarks;

import static io.zeocore.benchmarks.Contenders.VALUE;

import dev.failsafe.FailsafeExecutor;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A benchmark that times ZeoCore against its peers (Resilience4j, Failsafe, no library) in three shapes ({@code sync},
 * {@code async}, {@code deferred}): the peers' executors built as in {@link Contenders}, their shutdown, and the check
 * that every contender behaves as the benchmark assumes before it is timed, and ZeoCore's {@code sync} and
 * {@code async} rows (one run of the policy over the targets); ZeoCore's runner, policy and targets are the benchmark's
 * to set.
 */
abstract class PeerComparisonBenchmark extends SuiteSettings {

  /** ZeoCore's side, set up by the benchmark: its runner, its policy and its targets for each shape. */
  ResilientRunner runner;
  ExecutionPolicy policy;
  Map<String, SyncExecutionTarget<String>> syncTargets;
  Map<String, AsyncExecutionTarget<String>> asyncTargets;
  Map<String, AsyncExecutionTarget<String>> deferredTargets;

  Retry retry;
  TimeLimiter timeLimiter;
  ScheduledExecutorService r4jScheduler;
  ExecutorService r4jSyncExecutor;

  FailsafeExecutor<String> failsafe;
  FailsafeExecutor<String> failsafeRetryOnly;

  /** Builds the peers' retries, time limiter, executors and Failsafe executors for up to {@code maxAttempts}. */
  final void setUpPeers(int maxAttempts) {
    retry = Contenders.resilience4jRetry(maxAttempts);
    timeLimiter = Contenders.resilience4jTimeLimiter();
    r4jScheduler = Contenders.resilience4jScheduler();
    r4jSyncExecutor = Contenders.resilience4jSyncExecutor();

    failsafe = Contenders.failsafe(maxAttempts);
    failsafeRetryOnly = Contenders.failsafeRetryOnly(maxAttempts);
  }

  /**
   * Runs every contender once: each of ZeoCore's results must pass {@code zeoCoreBehaved} (otherwise
   * {@code zeoCoreMisbehaved} and the result are thrown), each peer must return {@link Contenders#VALUE}.
   *
   * @throws IllegalStateException "a contender failed before measurement" when any of them does not
   */
  final void verifyContenders(Predicate<ResilientExecutionResult<String>> zeoCoreBehaved, String zeoCoreMisbehaved) {
    try {
      for (ResilientExecutionResult<String> result : List.of(syncZeoCore(), asyncZeoCore(), deferredZeoCore())) {
        if (!zeoCoreBehaved.test(result)) {
          throw new IllegalStateException(zeoCoreMisbehaved + ": " + result);
        }
      }
      String[] peers = {syncDirect(), syncResilience4j(), syncFailsafe(), syncResilience4jRetryOnly(),
          syncFailsafeRetryOnly(), asyncDirect(), asyncResilience4j(), asyncFailsafe(), asyncResilience4jRetryOnly(),
          asyncFailsafeRetryOnly(), deferredDirect(), deferredResilience4j(), deferredFailsafe(),
          deferredResilience4jRetryOnly(), deferredFailsafeRetryOnly()};
      for (String value : peers) {
        if (!VALUE.equals(value)) {
          throw new IllegalStateException("a peer returned " + value);
        }
      }
    } catch (Exception failure) {
      throw new IllegalStateException("a contender failed before measurement", failure);
    }
  }

  @TearDown
  public void tearDown() {
    r4jScheduler.shutdownNow();
    r4jSyncExecutor.shutdownNow();
  }

  public abstract String syncDirect() throws Exception;

  @Benchmark
  public ResilientExecutionResult<String> syncZeoCore() {
    return runner.runSync(policy, syncTargets);
  }

  public abstract String syncResilience4j() throws Exception;

  public abstract String syncFailsafe();

  public abstract String syncResilience4jRetryOnly() throws Exception;

  public abstract String syncFailsafeRetryOnly();

  public abstract String asyncDirect();

  @Benchmark
  public ResilientExecutionResult<String> asyncZeoCore() {
    return runner.runAsync(policy, asyncTargets).join();
  }

  public abstract String asyncResilience4j();

  public abstract String asyncFailsafe();

  public abstract String asyncResilience4jRetryOnly();

  public abstract String asyncFailsafeRetryOnly();

  public abstract String deferredDirect();

  public abstract ResilientExecutionResult<String> deferredZeoCore();

  public abstract String deferredResilience4j();

  public abstract String deferredFailsafe();

  public abstract String deferredResilience4jRetryOnly();

  public abstract String deferredFailsafeRetryOnly();
}
