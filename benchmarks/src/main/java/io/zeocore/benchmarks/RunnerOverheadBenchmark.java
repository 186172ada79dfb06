package io.zeocore.benchmarks;

import static io.zeocore.benchmarks.Contenders.VALUE;

import dev.failsafe.FailsafeExecutor;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Item 1: the cost of one successful attempt of a no-op target, through ZeoCore and through its peers configured as in
 * {@link Contenders} (up to three attempts; the first succeeds). {@code direct} calls the target with no library: the
 * floor. The {@code RetryOnly} rows drop the peers' attempt timeout: not equivalent, shown as the peers' floor.
 *
 * <p>Three shapes: {@code sync}; {@code async} with a target whose future is already complete when returned (a cache
 * hit, an immediate refusal); {@code deferred}, whose future is still pending and is answered by the benchmark thread
 * right after the library returned, so that the attempt timeout really is scheduled and cancelled.
 */
public class RunnerOverheadBenchmark extends PeerComparisonBenchmark {

  private static final int MAX_ATTEMPTS = 3;

  private final SyncExecutionTarget.Invocation<String> syncNoop = context -> VALUE;
  private final AsyncExecutionTarget.Invocation<String> asyncNoop =
      context -> CompletableFuture.completedFuture(VALUE);
  private final Callable<String> peerSyncNoop = () -> VALUE;
  private final Supplier<CompletionStage<String>> peerAsyncNoop = () -> CompletableFuture.completedFuture(VALUE);

  /** The answer the deferred target returns, still pending when the library receives it. */
  private CompletableFuture<String> pendingAnswer;
  private final AsyncExecutionTarget.Invocation<String> deferredNoop = context -> pendingAnswer;
  private final Supplier<CompletionStage<String>> peerDeferredNoop = () -> pendingAnswer;


  @Setup
  public void setUp() {
    runner = ResilientRunner.create();
    policy = Contenders.zeoCorePolicy("noop", "noop", "noop");
    syncTargets = Map.of("noop", SyncExecutionTarget.of("noop", String.class, syncNoop));
    asyncTargets = Map.of("noop", AsyncExecutionTarget.of("noop", String.class, asyncNoop));
    deferredTargets = Map.of("noop", AsyncExecutionTarget.of("noop", String.class, deferredNoop));

    setUpPeers(MAX_ATTEMPTS);
    verifyContenders();
  }

  /** Every contender must really return the target's value through one attempt before it is timed. */
  private void verifyContenders() {
    verifyContenders(result -> result.succeeded() && result.attempts().size() == 1 && VALUE.equals(result.value()),
        "ZeoCore did not succeed in one attempt");
  }

  @Benchmark
  public String syncDirect() throws Exception {
    return peerSyncNoop.call();
  }

  @Benchmark
  public String syncResilience4j() throws Exception {
    return retry.executeCallable(() -> timeLimiter.executeFutureSupplier(() -> r4jSyncExecutor.submit(peerSyncNoop)));
  }

  @Benchmark
  public String syncFailsafe() {
    return failsafe.get(peerSyncNoop::call);
  }

  @Benchmark
  public String syncResilience4jRetryOnly() throws Exception {
    return retry.executeCallable(peerSyncNoop);
  }

  @Benchmark
  public String syncFailsafeRetryOnly() {
    return failsafeRetryOnly.get(peerSyncNoop::call);
  }

  @Benchmark
  public String asyncDirect() {
    return peerAsyncNoop.get().toCompletableFuture().join();
  }

  @Benchmark
  public String asyncResilience4j() {
    return retry.executeCompletionStage(r4jScheduler,
        () -> timeLimiter.executeCompletionStage(r4jScheduler, peerAsyncNoop)).toCompletableFuture().join();
  }

  @Benchmark
  public String asyncFailsafe() {
    return failsafe.getStageAsync(peerAsyncNoop::get).join();
  }

  @Benchmark
  public String asyncResilience4jRetryOnly() {
    return retry.executeCompletionStage(r4jScheduler, peerAsyncNoop).toCompletableFuture().join();
  }

  @Benchmark
  public String asyncFailsafeRetryOnly() {
    return failsafeRetryOnly.getStageAsync(peerAsyncNoop::get).join();
  }

  /*
   * Deferred: the target returns a future that is still pending and the benchmark thread answers it right after the
   * library returned, so every contender schedules its attempt timeout and cancels it, without a thread hop. This is
   * the path of a real non-blocking call.
   */

  @Benchmark
  public String deferredDirect() {
    CompletableFuture<String> answer = pendingAnswer = new CompletableFuture<>();
    CompletableFuture<String> run = peerDeferredNoop.get().toCompletableFuture();
    answer.complete(VALUE);
    return run.join();
  }

  @Benchmark
  public ResilientExecutionResult<String> deferredZeoCore() {
    CompletableFuture<String> answer = pendingAnswer = new CompletableFuture<>();
    CompletableFuture<ResilientExecutionResult<String>> run = runner.runAsync(policy, deferredTargets);
    answer.complete(VALUE);
    return run.join();
  }

  @Benchmark
  public String deferredResilience4j() {
    return deferredResilience4j(() -> timeLimiter.executeCompletionStage(r4jScheduler, peerDeferredNoop));
  }

  @Benchmark
  public String deferredFailsafe() {
    return deferredFailsafe(failsafe);
  }

  @Benchmark
  public String deferredResilience4jRetryOnly() {
    return deferredResilience4j(peerDeferredNoop);
  }

  @Benchmark
  public String deferredFailsafeRetryOnly() {
    return deferredFailsafe(failsafeRetryOnly);
  }

  /** One deferred run through Resilience4j's retry, its attempt started by {@code attempt}. */
  private String deferredResilience4j(Supplier<CompletionStage<String>> attempt) {
    CompletableFuture<String> answer = pendingAnswer = new CompletableFuture<>();
    CompletionStage<String> run = retry.executeCompletionStage(r4jScheduler, attempt);
    answer.complete(VALUE);
    return run.toCompletableFuture().join();
  }

  /** One deferred run through the Failsafe {@code executor} (with or without its timeout). */
  private String deferredFailsafe(FailsafeExecutor<String> executor) {
    CompletableFuture<String> answer = pendingAnswer = new CompletableFuture<>();
    CompletableFuture<String> run = executor.getStageAsync(peerDeferredNoop::get);
    answer.complete(VALUE);
    return run.join();
  }
}
