package io.zeocore.benchmarks;

import static io.zeocore.benchmarks.Contenders.VALUE;

import dev.failsafe.FailsafeExecutor;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Item 5, a plain measurement (not JMH): {@code runs} async runs started back to back from one thread, all in flight at
 * once, each awaiting a target that answers after {@code delayMs}. The target is non-blocking: its answers come from
 * one "provider" thread, as from an HTTP client's selector, so every thread beyond it is the library's.
 *
 * <p>Per contender, in a fresh JVM: {@code warmup} unmeasured rounds, then {@code rounds} measured rounds reporting wall
 * time (first start to last completion) and launch time (starting all runs); the JVM's peak live thread count over the
 * measured rounds (after {@code ThreadMXBean.resetPeakThreadCount}) against the count before the library was first used;
 * runs that did not return the target's value; bytes allocated per run over all threads; and one gated round, whose
 * targets answer only when released (its timeouts are 60 s so none fires across the GCs), measuring the heap retained
 * per in-flight run after a full GC, then the heap left after all completed (a leak check). Prints one JSON object.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.zeocore.benchmarks.ConcurrentAsyncRuns zeocore|resilience4j|failsafe|direct
 * [runs] [delayMs] [warmup] [rounds]}
 */
public final class ConcurrentAsyncRuns {

  /** The gated round holds every run in flight across several full GCs: its timeouts must not fire meanwhile. */
  private static final Duration GATED_ATTEMPT_TIMEOUT = Duration.ofSeconds(60);

  private final String contender;
  private final int runs;
  private final long delayMs;
  private final ScheduledExecutorService provider;
  private final Function<Supplier<CompletionStage<String>>, Supplier<CompletableFuture<?>>> library;
  private final Function<Supplier<CompletionStage<String>>, Supplier<CompletableFuture<?>>> patientLibrary;
  private final int threadsAtStart;
  private int failedRuns;

  private ConcurrentAsyncRuns(String contender, int runs, long delayMs) {
    this.contender = contender;
    this.runs = runs;
    this.delayMs = delayMs;
    ScheduledThreadPoolExecutor providerThread = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "provider-io");
      thread.setDaemon(true);
      return thread;
    });
    providerThread.prestartAllCoreThreads();
    this.provider = providerThread;
    this.threadsAtStart = ManagementFactory.getThreadMXBean().getThreadCount();
    this.library = library(contender, Contenders.ATTEMPT_TIMEOUT, Contenders.TOTAL_TIMEOUT);
    this.patientLibrary = library(contender, GATED_ATTEMPT_TIMEOUT, GATED_ATTEMPT_TIMEOUT.multipliedBy(2));
  }

  /**
   * How each contender runs a target: the configuration of {@link Contenders} (up to three attempts) with the given
   * timeouts. Given the target, returns what starts one run of it, so that per-run work is the library's alone.
   */
  private static Function<Supplier<CompletionStage<String>>, Supplier<CompletableFuture<?>>> library(
      String contender, Duration attemptTimeout, Duration totalTimeout) {
    switch (contender) {
      case "zeocore": {
        ResilientRunner runner = ResilientRunner.create();
        ExecutionPolicy policy = Contenders.zeoCorePolicy(attemptTimeout, totalTimeout, "slow", "slow", "slow");
        return target -> {
          Map<String, AsyncExecutionTarget<String>> targets =
              Map.of("slow", AsyncExecutionTarget.of("slow", String.class, context -> target.get()));
          return () -> runner.runAsync(policy, targets);
        };
      }
      case "resilience4j": {
        Retry retry = Contenders.resilience4jRetry(3);
        TimeLimiter timeLimiter = Contenders.resilience4jTimeLimiter(attemptTimeout);
        ScheduledExecutorService scheduler = Contenders.resilience4jScheduler();
        return target -> () -> retry.executeCompletionStage(scheduler,
            () -> timeLimiter.executeCompletionStage(scheduler, target)).toCompletableFuture();
      }
      case "failsafe": {
        FailsafeExecutor<String> failsafe = Contenders.failsafe(3, attemptTimeout, totalTimeout);
        return target -> () -> failsafe.getStageAsync(target::get);
      }
      case "direct":
        return target -> () -> target.get().toCompletableFuture();
      default:
        throw new IllegalArgumentException("unknown contender '" + contender
            + "'; expected zeocore, resilience4j, failsafe or direct");
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: ConcurrentAsyncRuns zeocore|resilience4j|failsafe|direct "
          + "[runs] [delayMs] [warmup] [rounds]");
    }
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    long delayMs = args.length > 2 ? Long.parseLong(args[2]) : 100;
    int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    System.out.println(new ConcurrentAsyncRuns(args[0], runs, delayMs).measure(warmup, rounds));
  }

  private String measure(int warmup, int rounds) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < warmup; i++) {
      timedRound();
    }
    settle();
    int threadsBefore = threads.getThreadCount();
    threads.resetPeakThreadCount();
    long allocatedBefore = allocatedByAllThreads(threads);
    failedRuns = 0;
    double[] wallMs = new double[rounds];
    double[] launchMs = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      double[] round = timedRound();
      launchMs[i] = round[0];
      wallMs[i] = round[1];
    }
    long allocatedPerRun = (allocatedByAllThreads(threads) - allocatedBefore) / ((long) rounds * runs);
    int peakThreads = threads.getPeakThreadCount();

    long baseline = settle();
    long inFlight = gatedRound();
    long afterCompletion = settle();

    return String.format(Locale.ROOT, "{\"contender\":\"%s\",\"runs\":%d,\"delayMs\":%d,\"rounds\":%d,"
            + "\"wallMs\":%s,\"launchMs\":%s,\"failedRuns\":%d,\"threadsAtStart\":%d,\"threadsBefore\":%d,"
            + "\"peakThreads\":%d,\"allocatedBytesPerRun\":%d,\"retainedBytesPerInFlightRun\":%d,"
            + "\"heapLeftAfterCompletionBytes\":%d,\"java\":\"%s\"}",
        contender, runs, delayMs, rounds, Arrays.toString(wallMs), Arrays.toString(launchMs), failedRuns,
        threadsAtStart, threadsBefore, peakThreads, allocatedPerRun, (inFlight - baseline) / runs,
        afterCompletion - baseline, System.getProperty("java.version"));
  }

  /** One round of {@code runs} runs of the delayed target: {launch ms, wall ms}. */
  private double[] timedRound() {
    Supplier<CompletionStage<String>> target = () -> {
      CompletableFuture<String> answer = new CompletableFuture<>();
      provider.schedule(() -> answer.complete(VALUE), delayMs, TimeUnit.MILLISECONDS);
      return answer;
    };
    Supplier<CompletableFuture<?>> startRun = library.apply(target);
    List<CompletableFuture<?>> results = new ArrayList<>(runs);
    long start = System.nanoTime();
    for (int i = 0; i < runs; i++) {
      results.add(startRun.get());
    }
    long launched = System.nanoTime();
    awaitAll(results);
    long done = System.nanoTime();
    failedRuns += failures(results);
    return new double[] {(launched - start) / 1e6, (done - start) / 1e6};
  }

  /** One round whose targets answer only when released: the heap used with every run in flight, after a full GC. */
  private long gatedRound() throws InterruptedException {
    // a library may call the target from its own threads (Failsafe does for some runs): a concurrent queue
    Queue<CompletableFuture<String>> answers = new ConcurrentLinkedQueue<>();
    Supplier<CompletionStage<String>> target = () -> {
      CompletableFuture<String> answer = new CompletableFuture<>();
      answers.add(answer);
      return answer;
    };
    Supplier<CompletableFuture<?>> startRun = patientLibrary.apply(target);
    List<CompletableFuture<?>> results = new ArrayList<>(runs);
    for (int i = 0; i < runs; i++) {
      results.add(startRun.get());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (answers.size() < runs && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    long inFlight = settle();
    long done = results.stream().filter(CompletableFuture::isDone).count();
    if (answers.size() != runs || done > 0) {
      throw new IllegalStateException(contender + ": a gated run ended or retried before its target answered: "
          + answers.size() + " target calls, " + done + " runs done");
    }
    provider.execute(() -> answers.forEach(answer -> answer.complete(VALUE)));
    awaitAll(results);
    return inFlight;
  }

  private static void awaitAll(List<CompletableFuture<?>> results) {
    CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).handle((ignored, failure) -> null).join();
  }

  /** Runs that did not return the target's value (a peer's timeout firing late counts here). */
  private static int failures(List<CompletableFuture<?>> results) {
    int failed = 0;
    for (CompletableFuture<?> result : results) {
      Object value = result.isCompletedExceptionally() ? null : result.join();
      boolean ok = value instanceof ResilientExecutionResult<?> evidence
          ? evidence.succeeded() && VALUE.equals(evidence.value())
          : VALUE.equals(value);
      if (!ok) {
        failed++;
      }
    }
    return failed;
  }

  /** Full GCs until the used heap stops shrinking; returns it. */
  private static long settle() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50);
      long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (now >= used) {
        return now;
      }
      used = now;
    }
    return used;
  }

  private static long allocatedByAllThreads(ThreadMXBean threads) {
    com.sun.management.ThreadMXBean counting = (com.sun.management.ThreadMXBean) threads;
    long total = 0;
    for (long allocated : counting.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      if (allocated > 0) {
        total += allocated;
      }
    }
    return total;
  }
}
