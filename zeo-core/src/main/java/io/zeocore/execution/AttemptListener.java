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
   * budget, cancellation and preflight gates). An observation opened here is current while a sync target runs.
   */
  default void attemptStarted(ExecutionPolicy policy, AttemptContext context) {}

  /** Called as each attempt ends. */
  void attemptFinished(ExecutionPolicy policy, AttemptRecord record);

  /** Called once per run with its terminal result. */
  default void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {}

  /**
   * Called by the runner as each run begins, before any refusal check: the returned listener receives that run's
   * callbacks. A listener that keeps per-run state (an execution id, say) returns a fresh instance; the default is this
   * listener itself.
   */
  default AttemptListener forRun(ExecutionPolicy policy) {
    return this;
  }
}
