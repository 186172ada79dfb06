package io.zeocore.execution;

/**
 * Observes a run as it happens. {@link #attemptFinished} is called once per started attempt, on the thread that
 * finished it, right after its record is built and before any backoff; {@link #runFinished} once per run with the
 * terminal result (also for refusals, which have no attempts).
 *
 * <p>Listeners see records and codes only. A listener that throws does not change the run: the exception is
 * dropped (its class name is logged at WARN, never its message). Listeners must be fast and thread-safe.
 */
public interface AttemptListener {

  /**
   * Called as each attempt begins, on the thread that is about to call its target, right before the call (after the
   * budget, cancellation and preflight gates).
   */
  default void attemptStarted(ExecutionPolicy policy, AttemptContext context) {}

  /**
   * Called on the thread that calls the attempt's target, right before the call and after {@link #attemptStarted};
   * the returned scope is closed on that same thread as soon as the target's {@code invoke} returns or throws: for a
   * sync target, its whole call (with {@code deadline: enforced}, on the worker thread that runs it); for an async
   * target, the {@code invoke} that starts its work and returns a stage. Thread-bound context belongs here (an
   * observation scope, so that client calls made by the target nest under the attempt; log MDC entries), never state
   * that must outlive the call. Scopes of several listeners are opened in listener order and closed in reverse. A
   * listener that throws here is skipped for this attempt (logged at WARN by class name); the call happens anyway.
   */
  default TargetScope targetScope(ExecutionPolicy policy, AttemptContext context) {
    return TargetScope.NONE;
  }

  /** Called as each attempt ends. */
  void attemptFinished(ExecutionPolicy policy, AttemptRecord record);

  /** Called once per run with its terminal result. */
  default void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {}

  /**
   * Called by the runner as each run begins, before any refusal check: the returned listener receives that run's
   * callbacks. A listener that keeps per-run state returns a fresh instance; the default is this listener itself.
   *
   * @param executionId the run's id, made by the runner once per run ({@code exec-} and a random UUID) and given to
   *     every listener of that run and to its {@link ResilientExecutionResult#executionId() result}, so that events,
   *     observations, log lines and the result of one run carry the same id
   */
  default AttemptListener forRun(ExecutionPolicy policy, String executionId) {
    return this;
  }

  /** What {@link #targetScope} opened; closed on the same thread, exactly once. */
  @FunctionalInterface
  interface TargetScope extends AutoCloseable {

    /** A scope that holds nothing. */
    TargetScope NONE = () -> { };

    @Override
    void close();
  }
}
