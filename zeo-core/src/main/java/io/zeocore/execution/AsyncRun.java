package io.zeocore.execution;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The async driver of one {@link Run}: attempts complete through futures, timeouts and backoff slices are timers on the
 * shared scheduler. Exactly one of "the attempt completed" and "the attempt timed out" wins each attempt (a CAS on
 * {@code settled}); the winner alone touches the run's state, so the run is used by one thread at a time.
 */
final class AsyncRun<T> {

  private final Run<T, AsyncExecutionTarget<T>> run;
  private final ScheduledExecutorService scheduler;
  private final CompletableFuture<ResilientExecutionResult<T>> result = new CompletableFuture<>();
  private volatile CompletableFuture<T> inFlight;

  AsyncRun(Run<T, AsyncExecutionTarget<T>> run, ScheduledExecutorService scheduler) {
    this.run = run;
    this.scheduler = scheduler;
  }

  CompletableFuture<ResilientExecutionResult<T>> start() {
    result.whenComplete((ignored, failure) -> {
      CompletableFuture<T> attempt = inFlight;
      if (result.isCancelled() && attempt != null) {
        attempt.cancel(true);
      }
    });
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
    Run.Gate<T> gate = run.beforeAttempt(n, this::cancelled);
    if (gate instanceof Run.Stop<T> stop) {
      complete(stop.result());
      return;
    }
    Run.Proceed<T> attempt = (Run.Proceed<T>) gate;
    AsyncExecutionTarget<T> target = run.targets.get(attempt.context().targetId());
    CompletableFuture<T> future;
    try {
      CompletionStage<T> stage = target.invocation().invoke(attempt.context());
      future = toFuture(stage);
    } catch (Exception thrown) {
      failed(attempt, Failure.classify(thrown));
      return;
    } catch (Error error) {
      result.completeExceptionally(error);
      return;
    }
    inFlight = future;
    AtomicBoolean settled = new AtomicBoolean();
    Future<?> timer;
    try {
      timer = scheduler.schedule(() -> {
        if (settled.compareAndSet(false, true)) {
          future.cancel(true);
          failed(attempt, Failure.of(FailureKind.TIMEOUT));
        }
      }, attempt.context().timeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shutDown) {
      future.cancel(true);
      result.completeExceptionally(shutDown);
      return;
    }
    future.whenComplete((value, thrown) -> {
      if (!settled.compareAndSet(false, true)) {
        return;
      }
      timer.cancel(false);
      if (thrown == null) {
        if (target.responseType().isInstance(value)) {
          complete(run.succeeded(attempt, value));
        } else {
          failed(attempt, Failure.of(FailureKind.MALFORMED_RESPONSE));
        }
      } else if (Failure.unwrap(thrown) instanceof Error error) {
        result.completeExceptionally(error);
      } else {
        failed(attempt, Failure.classify(thrown));
      }
    });
    if (result.isCancelled()) {
      future.cancel(true);
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
    Run.AfterFailure<T> next = run.failed(attempt, failure, this::cancelled);
    if (next.result() != null) {
      complete(next.result());
      return;
    }
    int following = attempt.context().attemptNumber() + 1;
    long delay = next.delayNanos();
    backOff(following, delay, run.nowNanos() + delay);
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
    long slice = Math.min(run.pollNanos(), Math.min(left, deadline - run.nowNanos()));
    if (left <= 0 || slice <= 0) {
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
