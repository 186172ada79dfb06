package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.SettableCancellationToken;
import io.zeocore.execution.ZeoCoreExecutions;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Runs named policies as Reactor {@link Mono}s: the reactive entry point next to {@link ZeoCoreExecutions}, whose
 * registered targets and runner it uses. The starter declares it when reactor-core is on the class path.
 *
 * <p>{@link #runMono} is lazy: each subscription starts one run, and the {@code Mono} emits the run's evidence (never an
 * error for a target's failure, as {@code run} returns it). Cancelling the subscription cancels the run:
 * <ul>
 *   <li>a plan of asynchronous targets only ({@code Mono}/{@code CompletionStage} targets,
 *       {@link io.zeocore.execution.TargetRegistry#isAsyncPlan}) runs on ZeoCore's async runner and holds no thread;
 *       cancelling cancels the run's future, which cancels the attempt in flight at once (its stage, its
 *       {@code Mono}'s subscription) and starts no other; as for any cancelled {@code runAsync} future, the run
 *       then reports no completion to listeners (no {@code ExecutionCompletedEvent});</li>
 *   <li>any other plan runs synchronously on a thread of {@code scheduler} (by default Reactor's bounded elastic
 *       scheduler); cancelling cancels the run's token and interrupts that thread while the run is on it, which ends
 *       the run {@code CANCELLED} (with its events) as soon as the runner or a target that honours interrupts
 *       observes it (a sync target that ignores interrupts finishes its call first; a success then stays a
 *       success, and is not emitted).</li>
 * </ul>
 * A run that has been cancelled emits nothing. Thread-safe.
 */
public final class ZeoCoreReactiveExecutions {

  private final ZeoCoreExecutions executions;
  private final Scheduler scheduler;

  /** Runs on {@code executions}, sync plans on Reactor's bounded elastic scheduler. */
  public ZeoCoreReactiveExecutions(ZeoCoreExecutions executions) {
    this(executions, Schedulers.boundedElastic());
  }

  /** Runs on {@code executions}, sync plans on {@code scheduler}. */
  public ZeoCoreReactiveExecutions(ZeoCoreExecutions executions, Scheduler scheduler) {
    this.executions = Objects.requireNonNull(executions, "executions");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /**
   * A {@code Mono} of one run of the policy called {@code policyName} with the registered targets its plan names, each
   * called with {@code input}; see the class comment for threads and cancellation.
   *
   * @throws IllegalArgumentException when no policy has that name (at once, not through the {@code Mono})
   */
  public <I, T> Mono<ResilientExecutionResult<T>> runMono(String policyName, I input, Class<T> responseType) {
    ExecutionPolicy policy = executions.policies().get(policyName);
    if (executions.targets().isAsyncPlan(policy)) {
      return Mono.fromFuture(() -> executions.runAsync(policyName, input, responseType), false);
    }
    return Mono.create(sink -> {
      SettableCancellationToken token = new SettableCancellationToken();
      RunningThread running = new RunningThread();
      Disposable task = scheduler.schedule(() -> {
        if (!running.enter()) {
          return;
        }
        try {
          sink.success(executions.run(policyName, input, responseType, token));
        } catch (RuntimeException | Error failed) {
          sink.error(failed);
        } finally {
          running.leave();
        }
      });
      sink.onCancel(() -> {
        token.cancel();
        running.interrupt();
        task.dispose();
      });
    });
  }

  /** The thread a sync run is on, interrupted on cancellation only while the run is on it. */
  private static final class RunningThread {

    private @Nullable Thread thread;
    private boolean cancelled;

    synchronized boolean enter() {
      if (cancelled) {
        return false;
      }
      thread = Thread.currentThread();
      return true;
    }

    synchronized void leave() {
      thread = null;
      Thread.interrupted(); // an interrupt of ours must not reach the scheduler's next task
    }

    synchronized void interrupt() {
      cancelled = true;
      if (thread != null) {
        thread.interrupt();
      }
    }
  }
}
