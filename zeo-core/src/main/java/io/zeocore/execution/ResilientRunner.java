package io.zeocore.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Runs one {@link ExecutionPolicy}'s explicit plan of attempts under one total deadline and returns evidence, never an
 * exception.
 *
 * <h2>What a run does</h2>
 * <ol>
 *   <li>Refuses before any call, without reading the clock, in this order: an {@link OperationMode#EFFECTFUL} policy;
 *       then, per planned id in plan order, a missing target or one registered under another id, a target with
 *       {@code internalMaxAttempts != 1}, a simulated target the policy does not allow; then planned targets whose
 *       response types differ.</li>
 *   <li>Reads the start instant, then ends {@code CANCELLED} if the token is already cancelled.</li>
 *   <li>For each planned position: ends {@code EXHAUSTED} when no budget is left, {@code CANCELLED} when cancelled,
 *       and with the target's preflight failure (no call, no record) when it declares one; otherwise calls the target
 *       with {@code timeout = min(attemptTimeout, remaining)}.</li>
 *   <li>A value of the wrong type is {@link FailureKind#MALFORMED_RESPONSE}. After a failure it waits the policy's
 *       backoff (jittered, with the provider's Retry-After as floor) in slices of at most
 *       {@link ExecutionPolicy#cancellationPoll()}, checking cancellation between slices, or ends: {@code EXHAUSTED}
 *       for a retryable kind that cannot be retried (plan spent, or the wait would use the whole remaining budget),
 *       {@code REFUSED} for {@code VALIDATION}/{@code AUTHORIZATION}, {@code FAILED_SAFE} otherwise; cancellation
 *       observed after a failure wins.</li>
 * </ol>
 *
 * <h2>Timeouts</h2>
 * {@link #runSync} cannot stop in-process code: its attempt timeout is cooperative (targets receive
 * {@link AttemptContext#timeout()} and must apply it). Interrupting the calling thread ends a sync run
 * {@code CANCELLED} with the attempts so far and leaves the interrupt flag set. {@link #runAsync} enforces the
 * attempt timeout: when it expires the attempt's future is cancelled (work it started is abandoned, not stopped) and
 * the attempt is {@code TIMEOUT}. Async timers and backoff run on one shared scheduler thread, never on a sleeping
 * thread per run.
 *
 * <p>Instances are immutable, thread-safe and meant to be shared. Every finished attempt is handed to the
 * {@link AttemptListener}s as it happens.
 */
public final class ResilientRunner {

  private final MonotonicClock clock;
  private final Sleeper sleeper;
  private final JitterSource jitter;
  private final ScheduledExecutorService scheduler;
  private final List<AttemptListener> listeners;

  private ResilientRunner(Builder builder) {
    this.clock = builder.clock;
    this.sleeper = builder.sleeper;
    this.jitter = builder.jitter;
    this.scheduler = builder.scheduler != null ? builder.scheduler : SharedScheduler.INSTANCE;
    this.listeners = List.copyOf(builder.listeners);
  }

  /** A runner on the system clock, real sleeps, random jitter and the shared scheduler, without listeners. */
  public static ResilientRunner create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this runner's settings. */
  public Builder toBuilder() {
    Builder builder = new Builder().clock(clock).sleeper(sleeper).jitter(jitter);
    builder.scheduler = scheduler == SharedScheduler.INSTANCE ? null : scheduler;
    builder.listeners.addAll(listeners);
    return builder;
  }

  /** Runs the plan on the calling thread with no cancellation token. */
  public <T> ResilientExecutionResult<T> runSync(ExecutionPolicy policy, Map<String, SyncExecutionTarget<T>> targets) {
    return runSync(policy, targets, null, null);
  }

  /** Runs the plan on the calling thread; {@code cancellation} may be {@code null}. */
  public <T> ResilientExecutionResult<T> runSync(ExecutionPolicy policy, Map<String, SyncExecutionTarget<T>> targets,
      CancellationToken cancellation) {
    return runSync(policy, targets, cancellation, null);
  }

  /**
   * Runs the plan on the calling thread.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @param listener an extra listener for this run only (after the runner's own), or {@code null}
   */
  public <T> ResilientExecutionResult<T> runSync(ExecutionPolicy policy, Map<String, SyncExecutionTarget<T>> targets,
      CancellationToken cancellation, AttemptListener listener) {
    Run<T, SyncExecutionTarget<T>> run = newRun(policy, targets, cancellation, listener);
    String refusal = Run.refusal(policy, targets);
    if (refusal != null) {
      return run.refused(refusal);
    }
    run.start();
    Thread thread = Thread.currentThread();
    CancellationToken token = run.token;
    BooleanSupplier cancelled = () -> token.isCancelled() || thread.isInterrupted();
    if (cancelled.getAsBoolean()) {
      return run.cancelledNow();
    }
    for (int n = 1; ; n++) {
      Run.Gate<T> gate = run.beforeAttempt(n, cancelled);
      if (gate instanceof Run.Stop<T> stop) {
        return stop.result();
      }
      Run.Proceed<T> attempt = (Run.Proceed<T>) gate;
      SyncExecutionTarget<T> target = targets.get(attempt.context().targetId());
      Failure failure;
      try {
        T value = target.invocation().invoke(attempt.context());
        if (target.responseType().isInstance(value)) {
          return run.succeeded(attempt, value);
        }
        failure = Failure.of(FailureKind.MALFORMED_RESPONSE);
      } catch (InterruptedException interrupted) {
        thread.interrupt();
        failure = Failure.of(FailureKind.CANCELLED);
      } catch (Exception thrown) {
        failure = Failure.classify(thrown);
      }
      Run.AfterFailure<T> next = run.failed(attempt, failure, cancelled);
      if (next.result() != null) {
        return next.result();
      }
      if (!backOff(run, next.delayNanos(), cancelled)) {
        return run.cancelledNow();
      }
    }
  }

  /**
   * Sleeps {@code delayNanos} in slices of at most the poll interval, checking cancellation before each slice and once
   * after the last. Slices are bounded both by what is left of the delay and by the deadline on the clock, so neither
   * an oversleeping sleeper nor a clock that a test sleeper does not advance can stretch or hang the wait.
   *
   * @return {@code false} when cancellation (or an interrupt) was observed
   */
  private boolean backOff(Run<?, ?> run, long delayNanos, BooleanSupplier cancelled) {
    if (delayNanos <= 0) {
      return !cancelled.getAsBoolean(); // no wait: no clock reads
    }
    long poll = run.pollNanos();
    long left = delayNanos;
    long deadline = run.nowNanos() + delayNanos;
    while (left > 0) {
      if (cancelled.getAsBoolean()) {
        return false;
      }
      long slice = Math.min(poll, Math.min(left, deadline - run.nowNanos()));
      if (slice <= 0) {
        break;
      }
      try {
        sleeper.sleep(Duration.ofNanos(slice));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return false;
      }
      left -= slice;
    }
    return !cancelled.getAsBoolean();
  }

  /** Runs the plan asynchronously with no cancellation token. */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(ExecutionPolicy policy,
      Map<String, AsyncExecutionTarget<T>> targets) {
    return runAsync(policy, targets, null, null);
  }

  /** Runs the plan asynchronously; {@code cancellation} may be {@code null}. */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(ExecutionPolicy policy,
      Map<String, AsyncExecutionTarget<T>> targets, CancellationToken cancellation) {
    return runAsync(policy, targets, cancellation, null);
  }

  /**
   * Runs the plan asynchronously. The first attempt is invoked on the calling thread; later attempts on the thread
   * that completed the previous one or on the scheduler thread after a backoff, so invocations must not block.
   * Cancelling the returned future counts as cancellation: the attempt in flight is cancelled and the run ends.
   * The returned future never completes exceptionally except for an {@link Error} thrown by a target, or a
   * {@link java.util.concurrent.RejectedExecutionException} when a custom scheduler has been shut down.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @param listener an extra listener for this run only (after the runner's own), or {@code null}
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(ExecutionPolicy policy,
      Map<String, AsyncExecutionTarget<T>> targets, CancellationToken cancellation, AttemptListener listener) {
    Run<T, AsyncExecutionTarget<T>> run = newRun(policy, targets, cancellation, listener);
    String refusal = Run.refusal(policy, targets);
    if (refusal != null) {
      return CompletableFuture.completedFuture(run.refused(refusal));
    }
    return new AsyncRun<>(run, scheduler).start();
  }

  private <T, X extends ExecutionTarget<T>> Run<T, X> newRun(ExecutionPolicy policy, Map<String, X> targets,
      CancellationToken cancellation, AttemptListener listener) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(targets, "targets");
    List<AttemptListener> runListeners = listeners;
    if (listener != null) {
      runListeners = new ArrayList<>(listeners);
      runListeners.add(listener);
    }
    return new Run<>(policy, targets, cancellation != null ? cancellation : CancellationToken.never(), clock, jitter,
        runListeners);
  }

  /** Configures a {@link ResilientRunner}. */
  public static final class Builder {

    private MonotonicClock clock = MonotonicClock.system();
    private Sleeper sleeper = Sleeper.system();
    private JitterSource jitter = JitterSource.random();
    private ScheduledExecutorService scheduler;
    private final List<AttemptListener> listeners = new ArrayList<>();

    private Builder() {}

    /** The clock for every timing and budget decision. Default: {@link System#nanoTime()}. */
    public Builder clock(MonotonicClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The sync runner's backoff sleep. Default: {@link Thread#sleep}. */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The jitter source. Default: uniform random. */
    public Builder jitter(JitterSource jitter) {
      this.jitter = Objects.requireNonNull(jitter, "jitter");
      return this;
    }

    /**
     * The scheduler for async timeouts and backoff. Default: one shared daemon thread for the whole JVM. Delays are
     * handed to it as durations; with a test {@link MonotonicClock} they still elapse in real time.
     */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** Adds a listener called for every attempt and run of this runner. */
    public Builder listener(AttemptListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    public ResilientRunner build() {
      return new ResilientRunner(this);
    }
  }

  /** One daemon thread for all async timers of the JVM; cancelled timers are removed at once. */
  private static final class SharedScheduler {

    static final ScheduledExecutorService INSTANCE = create();

    private static ScheduledExecutorService create() {
      AtomicInteger count = new AtomicInteger();
      ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
        Thread thread = new Thread(task, "zeocore-runner-scheduler-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      });
      executor.setRemoveOnCancelPolicy(true);
      return executor;
    }
  }
}
