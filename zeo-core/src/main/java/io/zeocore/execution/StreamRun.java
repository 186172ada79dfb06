package io.zeocore.execution;

import io.zeocore.internal.SaturatingDurations;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streamed driver of one {@link Run} ({@link StreamExecution}'s rule). Every signal — the subscriber's requests and
 * cancellation, each attempt publisher's signals, the timers on the shared scheduler — takes one lock, so the run's
 * state and the subscriber's signals are touched by one thread at a time; no thread is held between signals. Each
 * attempt has its own subscriber object, and once an attempt is over its late signals are ignored.
 */
final class StreamRun<T> implements StreamExecution<T>, Flow.Subscription {

  private static final Logger log = LoggerFactory.getLogger(ResilientRunner.class);

  /** Chunks a publisher may emit beyond the demand it was given before its attempt fails malformed. */
  static final int MAX_BUFFERED_CHUNKS = 256;

  private final Run<StreamEvidence, StreamExecutionTarget<T>> run;
  private final ScheduledExecutorService scheduler;
  private final long firstChunkNanos;
  private final long idleNanos;
  private final long totalNanos;
  private final CompletableFuture<ResilientExecutionResult<StreamEvidence>> result = new CompletableFuture<>();
  private final AtomicBoolean subscribed = new AtomicBoolean();
  private final ReentrantLock lock = new ReentrantLock();
  private final BooleanSupplier hostCancelled;
  private final ArrayDeque<T> buffered = new ArrayDeque<>();

  // guarded by lock
  private Flow.@Nullable Subscriber<? super T> downstream;
  private long demand;
  private boolean started;
  private boolean done;
  private boolean cancelledByDownstream;
  private @Nullable Attempt current;
  private @Nullable Future<?> backoffTimer;

  StreamRun(Run<StreamEvidence, StreamExecutionTarget<T>> run, ScheduledExecutorService scheduler) {
    this.run = run;
    this.scheduler = scheduler;
    this.firstChunkNanos = SaturatingDurations.toNanos(run.policy.effectiveFirstChunkTimeout());
    this.idleNanos = SaturatingDurations.toNanos(run.policy.effectiveChunkIdleTimeout());
    this.totalNanos = SaturatingDurations.toNanos(run.policy.totalTimeout());
    this.hostCancelled = run.token::isCancelled;
  }

  /** A run refused before any call: its subscriber gets the refusal as soon as it subscribes. */
  static <T> StreamExecution<T> refused(ResilientExecutionResult<StreamEvidence> refusal, String policyName) {
    return new StreamExecution<>() {
      @Override
      public CompletableFuture<ResilientExecutionResult<StreamEvidence>> result() {
        return CompletableFuture.completedFuture(refusal);
      }

      @Override
      public void subscribe(Flow.Subscriber<? super T> subscriber) {
        subscriber.onSubscribe(NoSubscription.INSTANCE);
        subscriber.onError(new ExecutionFailedException(policyName, refusal));
      }
    };
  }

  @Override
  public CompletableFuture<ResilientExecutionResult<StreamEvidence>> result() {
    return result;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super T> subscriber) {
    if (subscriber == null) {
      throw new NullPointerException("subscriber");
    }
    if (!subscribed.compareAndSet(false, true)) {
      subscriber.onSubscribe(NoSubscription.INSTANCE);
      subscriber.onError(new IllegalStateException("a streamed run has one subscriber"));
      return;
    }
    lock.lock();
    try {
      downstream = subscriber;
      subscriber.onSubscribe(this);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void request(long n) {
    lock.lock();
    try {
      if (done) {
        return;
      }
      if (n <= 0) { // rule 3.9: the run ends and the subscriber hears why, not the run's result
        Flow.Subscriber<? super T> subscriber = downstream;
        cancelledByDownstream = true;
        cancelRun();
        if (subscriber != null) {
          subscriber.onError(new IllegalArgumentException("request must be positive, was " + n));
        }
        return;
      }
      demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
      if (!started) {
        started = true;
        run.start();
        if (hostCancelled.getAsBoolean()) {
          end(run.cancelledNow());
        } else {
          attempt(1);
        }
        return;
      }
      drain();
      Attempt attempt = current;
      if (attempt != null) {
        attempt.requestMore();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void cancel() {
    lock.lock();
    try {
      if (done) {
        return;
      }
      cancelledByDownstream = true;
      cancelRun();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the run {@code CANCELLED}: the attempt in flight (if any) is cancelled and recorded. */
  private void cancelRun() {
    Attempt attempt = current;
    if (attempt != null && !attempt.over) {
      attempt.fail(Failure.of(FailureKind.CANCELLED));
      return;
    }
    Future<?> waiting = backoffTimer;
    if (waiting != null) {
      waiting.cancel(false);
    }
    if (!started) {
      started = true;
      run.start();
    }
    end(run.cancelledNow());
  }

  /** Starts attempt {@code n} (or ends the run at its gate). Under the lock. */
  private void attempt(int n) {
    if (done) {
      return;
    }
    Run.Gate<StreamEvidence> gate = run.beforeAttempt(n, hostCancelled);
    if (gate instanceof Run.Stop<StreamEvidence> stop) {
      end(stop.result());
      return;
    }
    Run.Proceed<StreamEvidence> proceed = (Run.Proceed<StreamEvidence>) gate;
    StreamExecutionTarget<T> target = run.target(proceed.context().targetId());
    Attempt attempt = new Attempt(proceed, target);
    current = attempt;
    Flow.Publisher<T> publisher;
    try {
      publisher = run.callScoped(proceed.context(), target.invocation()::invoke);
      if (publisher == null) {
        throw new NullPointerException("stream target returned no publisher");
      }
    } catch (Exception thrown) {
      attempt.fail(run.classify(thrown, hostCancelled));
      return;
    } catch (Error error) {
      attempt.over = true;
      fatal(error);
      return;
    }
    long window = Math.min(firstChunkNanos, SaturatingDurations.toNanos(proceed.context().timeout()));
    attempt.timerDue = run.nowNanos() + window;
    attempt.timer = schedule(attempt::check, window);
    if (done) {
      return; // the scheduler refused the timer
    }
    try {
      publisher.subscribe(attempt);
    } catch (RuntimeException thrown) {
      if (!attempt.over) {
        attempt.fail(run.classify(thrown, hostCancelled));
      }
    }
  }

  /** Hands buffered chunks to the subscriber while it asks for them; completes when the attempt's publisher did. */
  private void drain() {
    Attempt attempt = current;
    while (attempt != null && !attempt.over && demand > 0 && !buffered.isEmpty()) {
      attempt.deliver(buffered.poll());
    }
    if (attempt != null && !attempt.over && attempt.completed && buffered.isEmpty()) {
      attempt.succeed();
    }
  }

  /** After a failed attempt that delivered nothing: the plan continues after {@code delayNanos}, or the run ends. */
  private void next(Attempt failed, Run.AfterFailure<StreamEvidence> after) {
    if (after.result() != null) {
      end(after.result());
      return;
    }
    int following = failed.proceed.context().attemptNumber() + 1;
    long delay = after.delayNanos();
    if (delay == 0) {
      attempt(following);
    } else {
      backOff(following, delay, run.nowNanos() + delay);
    }
  }

  /** One backoff slice of at most the cancellation poll, as the async driver waits. Under the lock. */
  private void backOff(int n, long left, long deadline) {
    if (done) {
      return;
    }
    if (hostCancelled.getAsBoolean()) {
      end(run.cancelledNow());
      return;
    }
    long slice = left <= 0 ? 0 : Math.min(run.pollNanos(), Math.min(left, deadline - run.nowNanos()));
    if (slice <= 0) {
      backoffTimer = null;
      attempt(n);
      return;
    }
    backoffTimer = schedule(() -> backOff(n, left - slice, deadline), slice);
  }

  /** Schedules {@code task} under the lock; a shut-down scheduler ends the run exceptionally. */
  private @Nullable Future<?> schedule(Runnable task, long delayNanos) {
    try {
      return scheduler.schedule(() -> {
        lock.lock();
        try {
          task.run();
        } finally {
          lock.unlock();
        }
      }, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shutDown) {
      Attempt attempt = current;
      if (attempt != null && !attempt.over) {
        attempt.over = true;
        attempt.cancelUpstream();
      }
      done = true;
      signalError(shutDown);
      result.completeExceptionally(shutDown);
      return null;
    }
  }

  /** The run's end: the subscriber hears it (unless it cancelled), then the result completes. */
  private void end(ResilientExecutionResult<StreamEvidence> ended) {
    done = true;
    current = null;
    buffered.clear();
    if (!cancelledByDownstream) {
      if (ended.outcome() == ExecutionOutcome.SUCCEEDED) {
        Flow.Subscriber<? super T> subscriber = downstream;
        if (subscriber != null) {
          try {
            subscriber.onComplete();
          } catch (RuntimeException subscriberFailure) {
            log.warn("A streamed run's subscriber threw {} from onComplete", subscriberFailure.getClass().getName());
          }
        }
      } else {
        signalError(new ExecutionFailedException(run.policy.name(), ended));
      }
    }
    result.complete(ended);
  }

  private void fatal(Error error) {
    done = true;
    current = null;
    signalError(error);
    result.completeExceptionally(error);
  }

  private void signalError(Throwable failure) {
    Flow.Subscriber<? super T> subscriber = downstream;
    if (subscriber != null && !cancelledByDownstream) {
      cancelledByDownstream = true; // nothing follows an error
      try {
        subscriber.onError(failure);
      } catch (RuntimeException subscriberFailure) {
        log.warn("A streamed run's subscriber threw {} from onError", subscriberFailure.getClass().getName());
      }
    }
  }

  /**
   * One attempt's subscription to its target's publisher, and its timer: first the first-chunk window, then, once a
   * chunk was delivered, the idle check, which also enforces the total deadline.
   */
  private final class Attempt implements Flow.Subscriber<T> {

    final Run.Proceed<StreamEvidence> proceed;
    final StreamExecutionTarget<T> target;
    Flow.@Nullable Subscription upstream;
    @Nullable Future<?> timer;
    /** When {@link #timer} fires, on the runner's clock. */
    long timerDue;
    /** Requested from the publisher and not yet received. */
    long requested;
    long delivered;
    long firstChunkAfterNanos;
    /** When the publisher last answered or was last asked for more after having nothing outstanding. */
    long idleSince;
    boolean completed;
    boolean over;

    Attempt(Run.Proceed<StreamEvidence> proceed, StreamExecutionTarget<T> target) {
      this.proceed = proceed;
      this.target = target;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      lock.lock();
      try {
        if (over || upstream != null) {
          subscription.cancel();
          return;
        }
        upstream = subscription;
        requestMore();
      } finally {
        lock.unlock();
      }
    }

    /** Passes the subscriber's demand on: what it asked for, less what is buffered or already requested. */
    void requestMore() {
      Flow.Subscription subscription = upstream;
      if (over || completed || subscription == null) {
        return;
      }
      long want = demand - buffered.size() - requested;
      if (want > 0) {
        if (requested == 0) {
          idleSince = run.nowNanos();
        }
        requested += want;
        subscription.request(want);
      }
    }

    @Override
    public void onNext(T chunk) {
      lock.lock();
      try {
        if (over) {
          return;
        }
        requested = Math.max(0, requested - 1);
        if (!target.responseType().isInstance(chunk)) {
          fail(Failure.of(FailureKind.MALFORMED_RESPONSE));
          return;
        }
        if (hostCancelled.getAsBoolean()) {
          fail(Failure.of(FailureKind.CANCELLED));
          return;
        }
        idleSince = run.nowNanos();
        if (demand > 0 && buffered.isEmpty()) {
          deliver(chunk);
        } else if (buffered.size() < MAX_BUFFERED_CHUNKS) {
          buffered.add(chunk);
        } else {
          fail(Failure.of(FailureKind.MALFORMED_RESPONSE)); // it ignores the demand it was given
        }
      } finally {
        lock.unlock();
      }
    }

    /** One chunk to the subscriber; the first one commits the run to this attempt. */
    void deliver(T chunk) {
      demand--;
      delivered++;
      if (delivered == 1) {
        firstChunkAfterNanos = Math.max(0, run.elapsedNanos() - proceed.startedNanos());
        // the first-chunk timer becomes the idle check when it fires no later than the first idle check must: with
        // the default timeouts (both the attempt timeout) it always does, and no timer is rescheduled per stream
        long firstCheck = Math.min(idleNanos, remainingNanos());
        if (timerDue - run.nowNanos() > firstCheck) {
          cancelTimer();
          timerDue = run.nowNanos() + firstCheck;
          timer = schedule(this::check, firstCheck);
          if (over) {
            return; // the scheduler refused the timer
          }
        }
      }
      Flow.Subscriber<? super T> subscriber = downstream;
      if (subscriber == null) {
        return;
      }
      try {
        subscriber.onNext(chunk);
      } catch (RuntimeException subscriberFailure) { // rule 2.13: the subscription is cancelled
        log.warn("A streamed run's subscriber threw {} from onNext; the run is cancelled",
            subscriberFailure.getClass().getName());
        cancelledByDownstream = true;
        if (!over) {
          fail(Failure.of(FailureKind.CANCELLED));
        }
      }
    }

    private long remainingNanos() {
      return Math.max(0, totalNanos - run.elapsedNanos());
    }

    @Override
    public void onError(Throwable thrown) {
      lock.lock();
      try {
        if (over) {
          return;
        }
        if (Failure.unwrap(thrown) instanceof Error error) {
          over = true;
          cancelTimer();
          fatal(error);
          return;
        }
        fail(run.classify(thrown, hostCancelled));
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void onComplete() {
      lock.lock();
      try {
        if (over) {
          return;
        }
        completed = true;
        drain();
      } finally {
        lock.unlock();
      }
    }

    void succeed() {
      over = true;
      cancelTimer();
      end(run.succeeded(proceed, evidence(), evidence()));
    }

    /** The attempt ends with {@code failure}: the plan continues when nothing was delivered, else the run ends. */
    void fail(Failure failure) {
      over = true;
      cancelTimer();
      cancelUpstream();
      buffered.clear();
      if (delivered > 0) {
        end(run.interrupted(proceed, failure, evidence()));
      } else {
        next(this, run.failed(proceed, failure, hostCancelled, StreamEvidence.NOTHING_DELIVERED));
      }
    }

    /** The attempt's timer: before the first chunk, the first-chunk window has passed; after it, the idle check. */
    void check() {
      if (over) {
        return;
      }
      if (delivered == 0) {
        fail(Failure.of(FailureKind.TIMEOUT));
      } else {
        idleCheck();
      }
    }

    /**
     * The idle check after the first chunk: the total deadline passed, or the publisher has been silent for the idle
     * timeout while it owed chunks, ends the attempt {@code TIMEOUT}; otherwise the check runs again when the earlier
     * of the two could next be reached.
     */
    void idleCheck() {
      if (over) {
        return;
      }
      long remaining = remainingNanos();
      long silent = requested > 0 ? run.nowNanos() - idleSince : 0;
      if (remaining <= 0 || silent >= idleNanos) {
        fail(Failure.of(FailureKind.TIMEOUT));
        return;
      }
      long next = Math.min(idleNanos - silent, remaining);
      timerDue = run.nowNanos() + next;
      timer = schedule(this::check, next);
    }

    StreamEvidence evidence() {
      return delivered == 0 ? StreamEvidence.NOTHING_DELIVERED
          : new StreamEvidence(delivered, java.time.Duration.ofNanos(firstChunkAfterNanos));
    }

    void cancelTimer() {
      Future<?> scheduled = timer;
      if (scheduled != null) {
        scheduled.cancel(false);
        timer = null;
      }
    }

    void cancelUpstream() {
      Flow.Subscription subscription = upstream;
      if (subscription != null) {
        try {
          subscription.cancel();
        } catch (RuntimeException publisherFailure) {
          log.debug("A stream target's publisher threw {} when cancelled", publisherFailure.getClass().getName());
        }
      }
    }
  }

  /** The subscription of a subscriber that is told at once how the run ended. */
  private enum NoSubscription implements Flow.Subscription {
    INSTANCE;

    @Override
    public void request(long n) {}

    @Override
    public void cancel() {}
  }
}
