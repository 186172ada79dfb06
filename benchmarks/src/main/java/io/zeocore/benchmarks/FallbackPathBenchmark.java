package io.zeocore.benchmarks;

import static io.zeocore.benchmarks.Contenders.PEER_TRANSIENT;
import static io.zeocore.benchmarks.Contenders.VALUE;
import static io.zeocore.benchmarks.Contenders.ZEOCORE_TRANSIENT;

import dev.failsafe.FailsafeExecutor;
import io.github.resilience4j.retry.Retry;
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
 * Item 2: the fallback path. The first target fails with a transient failure, the second succeeds, no delay between
 * them. ZeoCore plans {@code [primary, secondary]}; the peers retry at most twice and pick the target by attempt number
 * (Failsafe from its execution context, Resilience4j from a per-call counter, since its Retry hands the supplier no
 * context). {@code direct} is a hand-written try/catch: the floor. Shapes as in {@link RunnerOverheadBenchmark}:
 * {@code sync}; {@code async}, whose futures are complete when returned; {@code deferred}, whose futures are answered
 * by the benchmark thread right after the library returned.
 */
public class FallbackPathBenchmark extends PeerComparisonBenchmark {

  private static final int MAX_ATTEMPTS = 2;

  private final Callable<String> peerPrimary = () -> {
    throw PEER_TRANSIENT;
  };
  private final Callable<String> peerSecondary = () -> VALUE;
  private final Supplier<CompletionStage<String>> peerAsyncPrimary =
      () -> CompletableFuture.failedFuture(PEER_TRANSIENT);
  private final Supplier<CompletionStage<String>> peerAsyncSecondary = () -> CompletableFuture.completedFuture(VALUE);

  /** The answers the deferred targets return, still pending when the library receives them. */
  private CompletableFuture<String> pendingPrimary;
  private CompletableFuture<String> pendingSecondary;
  private final Supplier<CompletionStage<String>> peerDeferredPrimary = () -> pendingPrimary;
  private final Supplier<CompletionStage<String>> peerDeferredSecondary = () -> pendingSecondary;


  @Setup
  public void setUp() {
    runner = ResilientRunner.create();
    policy = Contenders.zeoCorePolicy("primary", "secondary");
    syncTargets = Map.of(
        "primary", SyncExecutionTarget.of("primary", String.class, context -> {
          throw ZEOCORE_TRANSIENT;
        }),
        "secondary", SyncExecutionTarget.of("secondary", String.class, context -> VALUE));
    asyncTargets = Map.of(
        "primary", AsyncExecutionTarget.of("primary", String.class,
            context -> CompletableFuture.failedFuture(ZEOCORE_TRANSIENT)),
        "secondary", AsyncExecutionTarget.of("secondary", String.class,
            context -> CompletableFuture.completedFuture(VALUE)));
    deferredTargets = Map.of(
        "primary", AsyncExecutionTarget.of("primary", String.class, context -> pendingPrimary),
        "secondary", AsyncExecutionTarget.of("secondary", String.class, context -> pendingSecondary));

    setUpPeers(MAX_ATTEMPTS);
    verifyContenders();
  }

  /**
   * Every contender must really fall back before it is timed. The primary always fails, so a peer returning the value
   * has called the secondary; ZeoCore's evidence shows both attempts.
   */
  private void verifyContenders() {
    verifyContenders(
        result -> result.succeeded() && result.attempts().size() == 2 && "secondary".equals(result.selectedTargetId()),
        "ZeoCore did not fall back");
  }

  @Benchmark
  public String syncDirect() throws Exception {
    try {
      return peerPrimary.call();
    } catch (Contenders.TransientFailure transientFailure) {
      return peerSecondary.call();
    }
  }

  @Benchmark
  public String syncResilience4j() throws Exception {
    int[] attempt = {0};
    return retry.executeCallable(() -> timeLimiter.executeFutureSupplier(
        () -> r4jSyncExecutor.submit(attempt[0]++ == 0 ? peerPrimary : peerSecondary)));
  }

  @Benchmark
  public String syncFailsafe() {
    return failsafe.get(context -> context.getAttemptCount() == 0 ? peerPrimary.call() : peerSecondary.call());
  }

  @Benchmark
  public String syncResilience4jRetryOnly() throws Exception {
    int[] attempt = {0};
    return retry.executeCallable(() -> attempt[0]++ == 0 ? peerPrimary.call() : peerSecondary.call());
  }

  @Benchmark
  public String syncFailsafeRetryOnly() {
    return failsafeRetryOnly.get(
        context -> context.getAttemptCount() == 0 ? peerPrimary.call() : peerSecondary.call());
  }

  @Benchmark
  public String asyncDirect() {
    return peerAsyncPrimary.get()
        .exceptionallyCompose(failure -> peerAsyncSecondary.get())
        .toCompletableFuture().join();
  }

  @Benchmark
  public String asyncResilience4j() {
    int[] attempt = {0};
    return retry.executeCompletionStage(r4jScheduler, () -> timeLimiter.executeCompletionStage(r4jScheduler,
        attempt[0]++ == 0 ? peerAsyncPrimary : peerAsyncSecondary)).toCompletableFuture().join();
  }

  @Benchmark
  public String asyncFailsafe() {
    return failsafe.getStageAsync(
        context -> context.getAttemptCount() == 0 ? peerAsyncPrimary.get() : peerAsyncSecondary.get()).join();
  }

  @Benchmark
  public String asyncResilience4jRetryOnly() {
    int[] attempt = {0};
    return retry.executeCompletionStage(r4jScheduler,
        () -> attempt[0]++ == 0 ? peerAsyncPrimary.get() : peerAsyncSecondary.get()).toCompletableFuture().join();
  }

  @Benchmark
  public String asyncFailsafeRetryOnly() {
    return failsafeRetryOnly.getStageAsync(
        context -> context.getAttemptCount() == 0 ? peerAsyncPrimary.get() : peerAsyncSecondary.get()).join();
  }

  /*
   * Deferred: both targets return futures that are still pending; the benchmark thread fails the primary's and answers
   * the secondary's right after the library returned, so every contender schedules (and cancels) its attempt timeouts.
   */

  /** Creates both pending answers before a deferred run. */
  private void pendAnswers() {
    pendingPrimary = new CompletableFuture<>();
    pendingSecondary = new CompletableFuture<>();
  }

  /** Fails the primary with {@code failure} and answers the secondary, after the library returned. */
  private void answerDeferred(RuntimeException failure) {
    pendingPrimary.completeExceptionally(failure);
    pendingSecondary.complete(VALUE);
  }

  @Benchmark
  public String deferredDirect() {
    pendAnswers();
    CompletableFuture<String> run = peerDeferredPrimary.get().toCompletableFuture()
        .exceptionallyCompose(failure -> peerDeferredSecondary.get());
    answerDeferred(PEER_TRANSIENT);
    return run.join();
  }

  @Benchmark
  public ResilientExecutionResult<String> deferredZeoCore() {
    pendAnswers();
    CompletableFuture<ResilientExecutionResult<String>> run = runner.runAsync(policy, deferredTargets);
    answerDeferred(ZEOCORE_TRANSIENT);
    return run.join();
  }

  @Benchmark
  public String deferredResilience4j() {
    int[] attempt = {0};
    return deferredResilience4j(() -> timeLimiter.executeCompletionStage(r4jScheduler,
        attempt[0]++ == 0 ? peerDeferredPrimary : peerDeferredSecondary));
  }

  @Benchmark
  public String deferredFailsafe() {
    return deferredFailsafe(failsafe);
  }

  @Benchmark
  public String deferredResilience4jRetryOnly() {
    int[] attempt = {0};
    return deferredResilience4j(() -> attempt[0]++ == 0 ? peerDeferredPrimary.get() : peerDeferredSecondary.get());
  }

  @Benchmark
  public String deferredFailsafeRetryOnly() {
    return deferredFailsafe(failsafeRetryOnly);
  }

  /** One deferred run through Resilience4j's retry, each attempt started by {@code attempts}. */
  private String deferredResilience4j(Supplier<CompletionStage<String>> attempts) {
    pendAnswers();
    CompletionStage<String> run = retry.executeCompletionStage(r4jScheduler, attempts);
    answerDeferred(PEER_TRANSIENT);
    return run.toCompletableFuture().join();
  }

  /** One deferred run through the Failsafe {@code executor} (with or without its timeout). */
  private String deferredFailsafe(FailsafeExecutor<String> executor) {
    pendAnswers();
    CompletableFuture<String> run = executor.getStageAsync(
        context -> context.getAttemptCount() == 0 ? peerDeferredPrimary.get() : peerDeferredSecondary.get());
    answerDeferred(PEER_TRANSIENT);
    return run.join();
  }
}
