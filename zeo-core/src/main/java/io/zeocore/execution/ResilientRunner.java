package io.zeocore.execution;

import io.zeocore.internal.NumberedDaemonThreads;
import io.zeocore.internal.SaturatingDurations;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

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
 *       and with the target's preflight failure (no call, no record) when it declares one; skips a target that is
 *       cooling down ({@link Builder#targetHealth}: a {@link AttemptOutcome#SKIPPED} record, no call, no wait; a plan
 *       whose remaining targets all cool ends {@code EXHAUSTED} with {@link MachineCodes#TARGET_COOLING}); otherwise
 *       calls the target with {@code timeout = min(attemptTimeout, remaining)}.</li>
 *   <li>A value of the wrong type is {@link FailureKind#MALFORMED_RESPONSE}. After a failure it waits the policy's
 *       backoff (jittered, with the provider's Retry-After as floor) in slices of at most
 *       {@link ExecutionPolicy#cancellationPoll()}, checking cancellation between slices, or ends: {@code EXHAUSTED}
 *       for a retryable kind that cannot be retried (plan spent, or the wait would use the whole remaining budget),
 *       {@code REFUSED} for {@code VALIDATION}/{@code AUTHORIZATION}, {@code FAILED_SAFE} otherwise; cancellation
 *       observed after a failure wins.</li>
 * </ol>
 *
 * <h2>Timeouts</h2>
 * By default {@link #runSync} cannot stop in-process code: its attempt timeout is cooperative (targets receive
 * {@link AttemptContext#timeout()} and must apply it). A policy with {@link DeadlineMode#ENFORCED} runs each sync
 * attempt on a worker thread instead: the caller waits at most the attempt's timeout, interrupts the worker and records
 * {@code TIMEOUT}; work that ignores the interrupt is abandoned and may still finish (its result is discarded).
 * Abandoned work never delays another attempt (see {@link Builder#deadlineWorkers}); an attempt whose target could not
 * be started — no worker took it before its deadline, or its target id has {@link Builder#maxAbandonedPerTarget}
 * abandoned calls still running — is not called and fails {@code TRANSIENT} with {@code dispatchStarted=false} and
 * {@link MachineCodes#NOT_STARTED}, never as a provider timeout. Interrupting the calling thread ends a sync run {@code CANCELLED} with the attempts so far and leaves the interrupt
 * flag set. {@link #runAsync} enforces the
 * attempt timeout: when it expires the attempt's future is cancelled (work it started is abandoned, not stopped) and
 * the attempt is {@code TIMEOUT}. Async timers and backoff run on one shared scheduler thread, never on a sleeping
 * thread per run.
 *
 * <h2>Exceptions</h2>
 * An exception a target throws becomes the attempt's failure: an {@link AttemptError} keeps its kind; anything else
 * is classified by the policy's {@link ExecutionPolicy#failureKinds()}, then the runner's
 * {@link ExceptionClassifier} (by default {@link ExceptionClassifier#defaults()}: refused connections transient before
 * dispatch, timeouts, Spring HTTP statuses), else {@code PERMANENT}. Only the kind, {@code dispatchStarted} and
 * Retry-After are kept; at DEBUG one line per failed attempt names the policy, the target, the kind and the
 * exception's class, never its message. Refusals before any call are logged at WARN with their code and target id.
 *
 * <p>Instances are immutable, thread-safe and meant to be shared. Every finished attempt is handed to the
 * {@link AttemptListener}s as it happens.
 */
public final class ResilientRunner {

  private final MonotonicClock clock;
  private final Sleeper sleeper;
  private final JitterSource jitter;
  private final ScheduledExecutorService scheduler;
  private final ExceptionClassifier classifier;
  private final @Nullable ExecutorService deadlineWorkers;
  private final int maxAbandonedPerTarget;
  private final List<AttemptListener> listeners;
  private final @Nullable TargetHealth targetHealth;

  /** {@link Builder#maxAbandonedPerTarget}'s default. */
  public static final int DEFAULT_MAX_ABANDONED_PER_TARGET = 64;

  private ResilientRunner(Builder builder) {
    this.clock = builder.clock;
    this.sleeper = builder.sleeper;
    this.jitter = builder.jitter;
    this.scheduler = builder.scheduler != null ? builder.scheduler : SharedScheduler.INSTANCE;
    this.classifier = builder.classifier;
    this.deadlineWorkers = builder.deadlineWorkers;
    this.maxAbandonedPerTarget = builder.maxAbandonedPerTarget;
    this.listeners = List.copyOf(builder.listeners);
    this.targetHealth = builder.targetHealth;
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
    Builder builder = new Builder().clock(clock).sleeper(sleeper).jitter(jitter).exceptionClassifier(classifier);
    builder.scheduler = scheduler == SharedScheduler.INSTANCE ? null : scheduler;
    builder.deadlineWorkers = deadlineWorkers;
    builder.maxAbandonedPerTarget = maxAbandonedPerTarget;
    builder.listeners.addAll(listeners);
    builder.targetHealth = targetHealth;
    return builder;
  }

  /** The listeners every run of this runner reports to, in registration order. */
  public List<AttemptListener> listeners() {
    return listeners;
  }

  /** The target health every run of this runner consults and feeds, if it has one. */
  public java.util.Optional<TargetHealth> targetHealth() {
    return java.util.Optional.ofNullable(targetHealth);
  }

  /** The classifier for exceptions that are not {@link AttemptError}s. */
  public ExceptionClassifier exceptionClassifier() {
    return classifier;
  }

  /** Runs the plan on the calling thread with no cancellation token. */
  public <T> ResilientExecutionResult<T> runSync(ExecutionPolicy policy, Map<String, SyncExecutionTarget<T>> targets) {
    return runSync(policy, targets, null, null);
  }

  /** Runs the plan on the calling thread; {@code cancellation} may be {@code null}. */
  public <T> ResilientExecutionResult<T> runSync(ExecutionPolicy policy, Map<String, SyncExecutionTarget<T>> targets,
      @Nullable CancellationToken cancellation) {
    return runSync(policy, targets, cancellation, null);
  }

  /**
   * Runs the plan on the calling thread.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @param listener an extra listener for this run only (after the runner's own), or {@code null}
   */
  public <T> ResilientExecutionResult<T> runSync(ExecutionPolicy policy, Map<String, SyncExecutionTarget<T>> targets,
      @Nullable CancellationToken cancellation, @Nullable AttemptListener listener) {
    Run<T, SyncExecutionTarget<T>> run = newRun(policy, targets, cancellation, listener);
    Run.Refusal refusal = Run.refusal(policy, targets);
    if (refusal != null) {
      return run.refused(refusal);
    }
    boolean enforced = policy.deadline() == DeadlineMode.ENFORCED;
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
      n = attempt.context().attemptNumber(); // past the cooling positions the gate skipped
      SyncExecutionTarget<T> target = run.target(attempt.context().targetId());
      Failure failure;
      try {
        T value = enforced
            ? invokeEnforced(run, target, attempt.context(), run.pollNanos())
            : run.callScoped(attempt.context(), target.invocation()::invoke);
        if (target.responseType().isInstance(value)) {
          return run.succeeded(attempt, value, null);
        }
        failure = Failure.of(FailureKind.MALFORMED_RESPONSE);
      } catch (DeadlineExpired expired) {
        failure = Failure.of(FailureKind.TIMEOUT);
      } catch (NotStarted notStarted) {
        failure = Failure.NOT_STARTED;
      } catch (InterruptedException interrupted) {
        thread.interrupt();
        failure = Failure.of(FailureKind.CANCELLED);
      } catch (Exception thrown) {
        failure = run.classify(thrown, cancelled);
      }
      Run.AfterFailure<T> next = run.failed(attempt, failure, cancelled, null);
      if (next.result() != null) {
        return next.result();
      }
      if (!backOff(run, next.delayNanos(), cancelled)) {
        return run.cancelledNow();
      }
    }
  }

  /** The enforced attempt's deadline passed; the worker was interrupted and abandoned. No stack trace. */
  private static final class DeadlineExpired extends Exception {

    private static final long serialVersionUID = 1L;

    DeadlineExpired() {
      super(null, null, false, false);
    }
  }

  /** The enforced attempt's target was never called ({@link MachineCodes#NOT_STARTED}). No stack trace. */
  private static final class NotStarted extends Exception {

    private static final long serialVersionUID = 1L;

    NotStarted() {
      super(null, null, false, false);
    }
  }

  /**
   * Runs one attempt on a worker and waits at most {@code context.timeout()} of real time for it, in slices of at most
   * the policy's cancellation poll so that the host's token is observed.
   *
   * <ul>
   *   <li>When the target's id already has {@link Builder#maxAbandonedPerTarget} abandoned calls still running, or the
   *       workers reject the task, the target is not called ({@link NotStarted}).</li>
   *   <li>On expiry: a call that a worker had not yet started never starts ({@link NotStarted}); a running call is
   *       interrupted and abandoned ({@link DeadlineExpired}) and counts against its target id until it returns.</li>
   *   <li>On the host's cancellation or an interrupt of the caller, the worker is interrupted (and abandoned) too.</li>
   * </ul>
   * A target's exception is rethrown as it was thrown; an {@link Error} too.
   */
  private <T> T invokeEnforced(Run<T, ?> run, SyncExecutionTarget<T> target, AttemptContext context, long pollNanos)
      throws Exception {
    AbandonedCalls abandoned = AbandonedCalls.of(target.targetId());
    if (abandoned.running() >= maxAbandonedPerTarget) {
      throw new NotStarted();
    }
    ExecutorService workers = deadlineWorkers != null ? deadlineWorkers : DeadlineWorkers.INSTANCE;
    SyncExecutionTarget.Invocation<T> invocation = target.invocation();
    EnforcedCall<T> call = new EnforcedCall<>(() -> run.callScoped(context, invocation::invoke), abandoned);
    Future<T> future;
    try {
      future = workers.submit(call);
    } catch (RejectedExecutionException rejected) {
      throw new NotStarted();
    }
    long waitUntil = System.nanoTime() + SaturatingDurations.toNanos(context.timeout());
    try {
      while (true) {
        long left = waitUntil - System.nanoTime();
        if (left <= 0) {
          if (future.isDone()) {
            return future.get(); // it finished as the deadline passed: keep its answer
          }
          switch (call.abandon()) {
            case EnforcedCall.NEVER_STARTED -> {
              future.cancel(false);
              throw new NotStarted();
            }
            case EnforcedCall.ABANDONED -> {
              future.cancel(true);
              throw new DeadlineExpired();
            }
            default -> {
              return future.get(); // it returned between the two checks: keep its answer
            }
          }
        }
        try {
          return future.get(Math.min(left, pollNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException notYet) {
          if (context.cancellation().isCancelled()) {
            call.abandon();
            future.cancel(true);
            throw new CancellationException("cancelled by the host");
          }
        }
      }
    } catch (ExecutionException failed) {
      Throwable cause = failed.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      if (cause instanceof InterruptedException) {
        throw new CompletionException(cause); // the worker's own interrupt, not the caller's: classified, not CANCELLED
      }
      throw cause instanceof Exception exception ? exception : failed;
    } catch (InterruptedException interrupted) {
      call.abandon();
      future.cancel(true);
      throw interrupted;
    }
  }

  /**
   * The abandoned enforced calls of one target id that are still running, across the JVM: work that ignored its
   * interrupt and keeps its worker until it returns. Counted per target id, so that a hanging target can hold at most
   * {@link Builder#maxAbandonedPerTarget} workers and never those of another target or policy.
   */
  static final class AbandonedCalls {

    private static final ConcurrentHashMap<String, AbandonedCalls> BY_TARGET = new ConcurrentHashMap<>();

    private final AtomicInteger running = new AtomicInteger();

    static AbandonedCalls of(String targetId) {
      AbandonedCalls calls = BY_TARGET.get(targetId);
      return calls != null ? calls : BY_TARGET.computeIfAbsent(targetId, id -> new AbandonedCalls());
    }

    /** How many abandoned calls of {@code targetId} still run. */
    static int running(String targetId) {
      AbandonedCalls calls = BY_TARGET.get(targetId);
      return calls != null ? calls.running() : 0;
    }

    int running() {
      return running.get();
    }

    void abandoned() {
      running.incrementAndGet();
    }

    void returned() {
      running.decrementAndGet();
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
      Map<String, AsyncExecutionTarget<T>> targets, @Nullable CancellationToken cancellation) {
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
      Map<String, AsyncExecutionTarget<T>> targets, @Nullable CancellationToken cancellation,
      @Nullable AttemptListener listener) {
    Run<T, AsyncExecutionTarget<T>> run = newRun(policy, targets, cancellation, listener);
    Run.Refusal refusal = Run.refusal(policy, targets);
    if (refusal != null) {
      return CompletableFuture.completedFuture(run.refused(refusal));
    }
    return new AsyncRun<>(run, scheduler).start();
  }

  /** Streams the plan with no cancellation token ({@link #runStream(ExecutionPolicy, Map, CancellationToken, AttemptListener)}). */
  public <T> StreamExecution<T> runStream(ExecutionPolicy policy, Map<String, StreamExecutionTarget<T>> targets) {
    return runStream(policy, targets, null, null);
  }

  /**
   * Streams the plan: the returned publisher runs it when its subscriber first requests, and emits the chunks of the
   * attempt that delivers the first chunk (see {@link StreamExecution} for the rule). Each attempt waits for its first
   * chunk at most {@link ExecutionPolicy#effectiveFirstChunkTimeout()} (never more than its attempt timeout nor what
   * is left of the total); once a chunk is delivered, the attempt timeout no longer applies, the
   * {@link ExecutionPolicy#effectiveChunkIdleTimeout() idle timeout} does between chunks, and the total timeout bounds
   * the whole stream. Timers run on the runner's scheduler: no thread is held per stream. A refused run ends its
   * subscriber with the refusal at once.
   *
   * @param cancellation the host's token, observed before each attempt, during backoff and at each chunk; or
   *     {@code null}
   * @param listener an extra listener for this run only (after the runner's own), or {@code null}
   */
  public <T> StreamExecution<T> runStream(ExecutionPolicy policy, Map<String, StreamExecutionTarget<T>> targets,
      @Nullable CancellationToken cancellation, @Nullable AttemptListener listener) {
    Run<StreamEvidence, StreamExecutionTarget<T>> run = newRun(policy, targets, cancellation, listener);
    Run.Refusal refusal = Run.refusal(policy, targets);
    if (refusal != null) {
      return StreamRun.refused(run.refused(refusal), policy.name());
    }
    return new StreamRun<>(run, scheduler);
  }

  private <T, X extends ExecutionTarget<?>> Run<T, X> newRun(ExecutionPolicy policy, Map<String, X> targets,
      @Nullable CancellationToken cancellation, @Nullable AttemptListener listener) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(targets, "targets");
    List<AttemptListener> runListeners = listeners;
    String executionId = ExecutionIds.next();
    for (int i = 0; i < listeners.size(); i++) {
      AttemptListener shared = listeners.get(i);
      AttemptListener perRun = shared.forRun(policy, executionId);
      if (perRun != shared) {
        if (runListeners == listeners) {
          runListeners = new ArrayList<>(listeners);
        }
        runListeners.set(i, Objects.requireNonNull(perRun, "AttemptListener.forRun returned null"));
      }
    }
    if (listener != null) {
      if (runListeners == listeners) {
        runListeners = new ArrayList<>(listeners);
      }
      runListeners.add(listener.forRun(policy, executionId));
    }
    return new Run<>(policy, targets, cancellation != null ? cancellation : CancellationToken.never(), executionId,
        clock, jitter, classifier, runListeners, targetHealth);
  }

  /** Configures a {@link ResilientRunner}. */
  public static final class Builder {

    private MonotonicClock clock = MonotonicClock.system();
    private Sleeper sleeper = Sleeper.system();
    private JitterSource jitter = JitterSource.random();
    private @Nullable ScheduledExecutorService scheduler;
    private ExceptionClassifier classifier = ExceptionClassifier.defaults();
    private @Nullable ExecutorService deadlineWorkers;
    private int maxAbandonedPerTarget = DEFAULT_MAX_ABANDONED_PER_TARGET;
    private final List<AttemptListener> listeners = new ArrayList<>();
    private @Nullable TargetHealth targetHealth;

    private Builder() {}

    /**
     * Classifies exceptions that targets throw and that are not {@link AttemptError}s (after each policy's own
     * {@link ExecutionPolicy#failureKinds()}). Default: {@link ExceptionClassifier#defaults()}; to extend rather than
     * replace it, pass {@code mine.orElse(ExceptionClassifier.defaults())}.
     */
    public Builder exceptionClassifier(ExceptionClassifier classifier) {
      this.classifier = Objects.requireNonNull(classifier, "classifier");
      return this;
    }

    /**
     * The workers of {@link DeadlineMode#ENFORCED} sync attempts. Default: a new virtual thread per attempt on Java 21
     * and newer (detected at run time), otherwise one JVM-wide pool of daemon threads that grows by one thread for
     * each attempt no idle worker can take (idle workers end after 30 s): an attempt never waits behind another
     * one's work, abandoned or not. Platform threads are bounded by the callers waiting (one worker each) plus the
     * abandoned calls, at most {@link #maxAbandonedPerTarget} per target id. A custom executor may queue: an attempt
     * that no worker started before its deadline is not called at all and fails with
     * {@link MachineCodes#NOT_STARTED}; one it rejects fails the same way at once. The runner never shuts a custom
     * executor down.
     */
    public Builder deadlineWorkers(ExecutorService workers) {
      this.deadlineWorkers = Objects.requireNonNull(workers, "workers");
      return this;
    }

    /**
     * How many abandoned calls of one target id (enforced attempts that outlived their deadline and ignore the
     * interrupt) may still be running in the JVM before this runner stops starting that target: further enforced
     * attempts of it fail at once with {@link MachineCodes#NOT_STARTED} ({@code TRANSIENT},
     * {@code dispatchStarted=false}, the target not called), so the plan's next target runs, until some of that
     * work returns. Attempts of other targets are never affected. Default {@value #DEFAULT_MAX_ABANDONED_PER_TARGET}.
     *
     * @throws IllegalArgumentException when {@code max < 1}
     */
    public Builder maxAbandonedPerTarget(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxAbandonedPerTarget must be at least 1");
      }
      this.maxAbandonedPerTarget = max;
      return this;
    }

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

    /**
     * Every source of time at once: the {@link #clock}, the {@link #sleeper} and the {@link #scheduler} of
     * {@code time} (a test's virtual time, say). Default: {@link TimeSource#system()}.
     */
    public Builder timeSource(TimeSource time) {
      Objects.requireNonNull(time, "time");
      clock(time);
      sleeper(time);
      ScheduledExecutorService timers = time.scheduler();
      this.scheduler = timers == SharedScheduler.INSTANCE ? null : timers;
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

    /**
     * The target cooldowns every run consults before calling a planned target and feeds with each attempt's end (see
     * {@link TargetHealth}). Default: none, every planned target is called. Its clock should be this runner's.
     */
    public Builder targetHealth(@Nullable TargetHealth health) {
      this.targetHealth = health;
      return this;
    }

    public ResilientRunner build() {
      return new ResilientRunner(this);
    }
  }

  /**
   * The default workers of enforced sync attempts: {@code Executors.newVirtualThreadPerTaskExecutor()} when the JVM
   * has it (Java 21+, looked up reflectively because the code is compiled for Java 17), else a pool of daemon threads
   * that grows instead of queueing.
   */
  private static final class DeadlineWorkers {

    static final ExecutorService INSTANCE = create();

    private static ExecutorService create() {
      try {
        Method virtual = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        return (ExecutorService) virtual.invoke(null);
      } catch (ReflectiveOperationException | RuntimeException beforeJava21) {
        // no queue: an attempt that finds no idle worker gets a new one, so abandoned work never delays another
        // attempt; what bounds the threads is the callers waiting and Builder.maxAbandonedPerTarget
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
            new NumberedDaemonThreads("zeocore-deadline-worker-"));
      }
    }
  }

  /** One daemon thread for all async timers of the JVM; cancelled timers are removed at once. */
  static final class SharedScheduler {

    static final ScheduledExecutorService INSTANCE = create();

    private static ScheduledExecutorService create() {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(1, new NumberedDaemonThreads("zeocore-runner-scheduler-"));
      executor.setRemoveOnCancelPolicy(true);
      return executor;
    }
  }
}
