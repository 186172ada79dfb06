package io.zeocore.execution;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The async driver of one {@link Run}: attempts complete through futures, timeouts and backoff slices are timers on the
 * shared scheduler. Exactly one of "the attempt completed" and "the attempt timed out" wins each attempt (a CAS on
 * {@code settled}); the winner alone touches the run's state, so the run is used by one thread at a time.
 */
final class AsyncRun<T> {

  private final Run<T, AsyncExecutionTarget<T>> run;
  private final ScheduledExecutorService scheduler;
  private final RunFuture result = new RunFuture();
  private final BooleanSupplier cancelled = this::cancelled;
  private volatile @Nullable CompletableFuture<T> inFlight;

  AsyncRun(Run<T, AsyncExecutionTarget<T>> run, ScheduledExecutorService scheduler) {
    this.run = run;
    this.scheduler = scheduler;
  }

  /**
   * The run's future. Cancelling it (or completing it with a {@link java.util.concurrent.CancellationException})
   * cancels the attempt in flight; overriding the two methods costs nothing per run, unlike a dependent stage.
   */
  private final class RunFuture extends CompletableFuture<ResilientExecutionResult<T>> {

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean done = super.cancel(mayInterruptIfRunning);
      cancelInFlight();
      return done;
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
      boolean done = super.completeExceptionally(failure);
      cancelInFlight();
      return done;
    }

    private void cancelInFlight() {
      CompletableFuture<T> attempt = inFlight;
      if (isCancelled() && attempt != null) {
        attempt.cancel(true);
      }
    }
  }

  CompletableFuture<ResilientExecutionResult<T>> start() {
    run.start();
    if (cancelled()) {
      complete(run.cancelledNow());
    } else {
      attempt(1);
    }
    return result;
  }

  /** The host's token, or the caller having cancelled the returned future. */
  private boolean cancelled() {
    return run.token.isCancelled() || result.isCancelled();
  }

  private void attempt(int n) {
    if (result.isDone()) {
      return;
    }
    Run.Gate<T> gate = run.beforeAttempt(n, cancelled);
    if (gate instanceof Run.Stop<T> stop) {
      complete(stop.result());
      return;
    }
    Run.Proceed<T> attempt = (Run.Proceed<T>) gate;
    AsyncExecutionTarget<T> target = run.target(attempt.context().targetId());
    CompletableFuture<T> future;
    try {
      CompletionStage<T> stage = run.callScoped(attempt.context(), target.invocation()::invoke);
      future = toFuture(stage);
    } catch (Exception thrown) {
      failed(attempt, run.classify(thrown, cancelled));
      return;
    } catch (Error error) {
      result.completeExceptionally(error);
      return;
    }
    if (future.isDone() && !future.isCompletedExceptionally()) {
      // answered at once: no timeout can apply, so no timer is scheduled (and none cancelled)
      settle(attempt, target, future.getNow(null), null);
      return;
    }
    if (future.isDone()) {
      future.whenComplete((value, thrown) -> settle(attempt, target, value, thrown));
      return;
    }
    inFlight = future;
    PendingAttempt pending = new PendingAttempt(attempt, target, future);
    try {
      pending.timer = scheduler.schedule(pending, attempt.context().timeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shutDown) {
      future.cancel(true);
      result.completeExceptionally(shutDown);
      return;
    }
    future.whenComplete(pending);
    if (result.isCancelled()) {
      future.cancel(true);
    }
  }

  /**
   * One attempt in flight. Its timeout ({@link #run}) and its completion ({@link #accept}) race through this flag;
   * the winner alone touches the run. One object instead of a flag and two lambdas.
   */
  private final class PendingAttempt extends AtomicBoolean implements Runnable, BiConsumer<T, Throwable> {

    private static final long serialVersionUID = 1L;

    private final transient Run.Proceed<T> attempt;
    private final transient AsyncExecutionTarget<T> target;
    private final transient CompletableFuture<T> future;
    /** Written before {@link #accept} is registered, so the completion always sees it. */
    private transient @Nullable Future<?> timer;

    PendingAttempt(Run.Proceed<T> attempt, AsyncExecutionTarget<T> target, CompletableFuture<T> future) {
      this.attempt = attempt;
      this.target = target;
      this.future = future;
    }

    @Override
    public void run() {
      if (compareAndSet(false, true)) {
        future.cancel(true);
        failed(attempt, Failure.of(FailureKind.TIMEOUT));
      }
    }

    @Override
    public void accept(T value, Throwable thrown) {
      if (compareAndSet(false, true)) {
        Future<?> scheduled = timer;
        if (scheduled != null) { // always set: accept is registered only after the timer is scheduled
          scheduled.cancel(false);
        }
        settle(attempt, target, value, thrown);
      }
    }
  }

  /** The attempt's future completed (before any timeout): success, malformed value or classified failure. */
  private void settle(Run.Proceed<T> attempt, AsyncExecutionTarget<T> target, @Nullable T value,
      @Nullable Throwable thrown) {
    if (thrown == null) {
      if (target.responseType().isInstance(value)) {
        complete(run.succeeded(attempt, value, null));
      } else {
        failed(attempt, Failure.of(FailureKind.MALFORMED_RESPONSE));
      }
    } else if (Failure.unwrap(thrown) instanceof Error error) {
      result.completeExceptionally(error);
    } else {
      failed(attempt, run.classify(thrown, cancelled));
    }
  }

  private static <T> CompletableFuture<T> toFuture(CompletionStage<T> stage) {
    if (stage == null) {
      throw new NullPointerException("async target returned no CompletionStage");
    }
    try {
      return stage.toCompletableFuture();
    } catch (UnsupportedOperationException notConvertible) {
      CompletableFuture<T> future = new CompletableFuture<>();
      stage.whenComplete((value, thrown) -> {
        if (thrown == null) {
          future.complete(value);
        } else {
          future.completeExceptionally(thrown);
        }
      });
      return future;
    }
  }

  private void failed(Run.Proceed<T> attempt, Failure failure) {
    inFlight = null;
    if (result.isDone()) {
      return;
    }
    Run.AfterFailure<T> next = run.failed(attempt, failure, cancelled, null);
    if (next.result() != null) {
      complete(next.result());
      return;
    }
    int following = attempt.context().attemptNumber() + 1;
    long delay = next.delayNanos();
    if (delay == 0) {
      backOff(following, 0, 0); // no wait: no clock reads
    } else {
      backOff(following, delay, run.nowNanos() + delay);
    }
  }

  /**
   * One backoff slice: checks cancellation, then either schedules the next slice (at most the poll interval) or, when
   * the delay is over, checks cancellation once more and starts attempt {@code n}. A zero delay starts it at once.
   */
  private void backOff(int n, long left, long deadline) {
    if (cancelled()) {
      complete(run.cancelledNow());
      return;
    }
    long slice = left <= 0 ? 0 : Math.min(run.pollNanos(), Math.min(left, deadline - run.nowNanos()));
    if (slice <= 0) {
      if (cancelled()) {
        complete(run.cancelledNow());
      } else {
        attempt(n);
      }
      return;
    }
    try {
      scheduler.schedule(() -> backOff(n, left - slice, deadline), slice, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shutDown) {
      result.completeExceptionally(shutDown);
    }
  }

  private void complete(ResilientExecutionResult<T> value) {
    result.complete(value);
  }
}
