package io.zeocore.execution;

import org.jspecify.annotations.Nullable;

/**
 * A target whose invocation blocks the calling thread. Its timeout is cooperative: the invocation must apply
 * {@link AttemptContext#timeout()} to its own I/O, because the runner cannot safely stop in-process code. For a hard
 * operating-system deadline use {@code io.zeocore.subprocess.SubprocessTargets}.
 *
 * <p>Exceptions thrown by the invocation are classified by the runner: {@link AttemptError} keeps its kind, an
 * {@link InterruptedException} ends the run {@code CANCELLED}, anything else goes through the policy's
 * {@link ExecutionPolicy#failureKinds()} and the runner's {@link ExceptionClassifier} (by default: refused connections
 * {@code TRANSIENT} before dispatch, socket and HTTP timeouts {@code TIMEOUT}, Spring HTTP response exceptions by
 * status, the rest {@code PERMANENT}). Exception text is never recorded.
 *
 * @param <T> the response type
 */
public record SyncExecutionTarget<T>(
    String targetId,
    Class<T> responseType,
    Invocation<T> invocation,
    ExecutionMode executionMode,
    int internalMaxAttempts,
    @Nullable FailureKind preflightFailure) implements ExecutionTarget<T> {

  /** One provider call. */
  @FunctionalInterface
  public interface Invocation<T> {
    T invoke(AttemptContext context) throws Exception;
  }

  public SyncExecutionTarget {
    ExecutionTarget.validate(targetId, responseType, invocation, executionMode, internalMaxAttempts);
  }

  /** A {@link ExecutionMode#LIVE} target making exactly one provider call per invocation. */
  public static <T> SyncExecutionTarget<T> of(String targetId, Class<T> responseType, Invocation<T> invocation) {
    return new SyncExecutionTarget<>(targetId, responseType, invocation, ExecutionMode.LIVE, 1, null);
  }

  public SyncExecutionTarget<T> withExecutionMode(ExecutionMode mode) {
    return new SyncExecutionTarget<>(targetId, responseType, invocation, mode, internalMaxAttempts, preflightFailure);
  }

  public SyncExecutionTarget<T> withInternalMaxAttempts(int attempts) {
    return new SyncExecutionTarget<>(targetId, responseType, invocation, executionMode, attempts, preflightFailure);
  }

  public SyncExecutionTarget<T> withPreflightFailure(FailureKind kind) {
    return new SyncExecutionTarget<>(targetId, responseType, invocation, executionMode, internalMaxAttempts, kind);
  }

  @Override
  public String toString() {
    return "SyncExecutionTarget[" + targetId + ", " + responseType.getSimpleName() + ", " + executionMode + "]";
  }
}
