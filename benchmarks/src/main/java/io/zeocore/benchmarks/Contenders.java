package io.zeocore.benchmarks;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.OperationMode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one place where ZeoCore and its peers are configured, so that every comparison runs equivalent settings:
 *
 * <ul>
 *   <li>at most {@code n} attempts, no delay between them, no jitter;</li>
 *   <li>a per-attempt timeout of {@link #ATTEMPT_TIMEOUT} (never reached: targets answer at once);</li>
 *   <li>retries only after a transient failure or an attempt timeout;</li>
 *   <li>a total budget of {@link #TOTAL_TIMEOUT} where the peer has one (ZeoCore's {@code totalTimeout}, Failsafe's
 *       {@code withMaxDuration}; Resilience4j's Retry has none);</li>
 *   <li>schedulers are single daemon threads that drop cancelled timers at once, like ZeoCore's shared scheduler.</li>
 * </ul>
 *
 * <p>Failing targets throw one pre-allocated exception, so that no contender pays for filling in a stack trace and the
 * measurement is the library's own path.
 */
final class Contenders {

  static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(1);
  static final Duration TOTAL_TIMEOUT = Duration.ofSeconds(10);
  static final String VALUE = "ok";

  /** What a failing ZeoCore target throws: a normalized transient failure. */
  static final AttemptError ZEOCORE_TRANSIENT = new AttemptError(FailureKind.TRANSIENT);

  /** What a failing peer target throws; the peers retry on it. */
  static final TransientFailure PEER_TRANSIENT = new TransientFailure();

  private Contenders() {}

  /** A read-only plan over {@code targets} with the shared timeouts, zero backoff and the default retryable kinds. */
  static ExecutionPolicy zeoCorePolicy(String... targets) {
    return zeoCorePolicy(ATTEMPT_TIMEOUT, TOTAL_TIMEOUT, targets);
  }

  static ExecutionPolicy zeoCorePolicy(Duration attemptTimeout, Duration totalTimeout, String... targets) {
    return ExecutionPolicy.builder()
        .operationMode(OperationMode.READ_ONLY)
        .totalTimeout(totalTimeout)
        .attemptTimeout(attemptTimeout)
        .attemptTargets(targets)
        .jitterFraction(0)
        .build();
  }

  /** Resilience4j Retry: {@code maxAttempts}, zero wait, retrying on the transient failure and on timeouts. */
  @SuppressWarnings("unchecked")
  static Retry resilience4jRetry(int maxAttempts) {
    return Retry.of("benchmark", RetryConfig.custom()
        .maxAttempts(maxAttempts)
        .waitDuration(Duration.ZERO)
        .retryExceptions(TransientFailure.class, TimeoutException.class)
        .build());
  }

  /** Resilience4j TimeLimiter: the attempt timeout, cancelling the attempt's future when it expires. */
  static TimeLimiter resilience4jTimeLimiter() {
    return resilience4jTimeLimiter(ATTEMPT_TIMEOUT);
  }

  static TimeLimiter resilience4jTimeLimiter(Duration attemptTimeout) {
    return TimeLimiter.of("benchmark", TimeLimiterConfig.custom()
        .timeoutDuration(attemptTimeout)
        .cancelRunningFuture(true)
        .build());
  }

  /** The scheduler Resilience4j needs for async timeouts and retries. */
  static ScheduledExecutorService resilience4jScheduler() {
    ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, daemon("r4j-scheduler"));
    scheduler.setRemoveOnCancelPolicy(true);
    return scheduler;
  }

  /**
   * The pool on which Resilience4j's synchronous TimeLimiter runs each attempt ({@code executeFutureSupplier} waits on
   * a {@code Future} with a timeout, so the attempt must run on another thread). One thread per core.
   */
  static ExecutorService resilience4jSyncExecutor() {
    return Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), daemon("r4j-attempt"));
  }

  /** Failsafe RetryPolicy: {@code maxAttempts}, zero delay (the default), max duration = the total budget. */
  static RetryPolicy<String> failsafeRetryPolicy(int maxAttempts) {
    return failsafeRetryPolicy(maxAttempts, TOTAL_TIMEOUT);
  }

  static RetryPolicy<String> failsafeRetryPolicy(int maxAttempts, Duration totalTimeout) {
    return RetryPolicy.<String>builder()
        .handle(List.of(TransientFailure.class, TimeoutExceededException.class))
        .withMaxAttempts(maxAttempts)
        // no withDelay: Failsafe's default delay is zero, and withDelay(Duration.ZERO) is rejected
        .withMaxDuration(totalTimeout)
        .build();
  }

  /** {@code Failsafe.with(retryPolicy, timeout)}: the timeout is inside the retry, so it bounds each attempt. */
  static FailsafeExecutor<String> failsafe(int maxAttempts) {
    return failsafe(maxAttempts, ATTEMPT_TIMEOUT, TOTAL_TIMEOUT);
  }

  static FailsafeExecutor<String> failsafe(int maxAttempts, Duration attemptTimeout, Duration totalTimeout) {
    return Failsafe.with(failsafeRetryPolicy(maxAttempts, totalTimeout), Timeout.<String>of(attemptTimeout));
  }

  /** Failsafe's RetryPolicy alone: not equivalent (no attempt timeout), reported as the peers' floor. */
  static FailsafeExecutor<String> failsafeRetryOnly(int maxAttempts) {
    return Failsafe.with(failsafeRetryPolicy(maxAttempts));
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** The peers' transient failure: stackless, so throwing it costs the same for every contender. */
  static final class TransientFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    TransientFailure() {
      super("transient", null, false, false);
    }
  }
}
