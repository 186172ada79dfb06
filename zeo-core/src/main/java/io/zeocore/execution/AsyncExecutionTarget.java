package io.zeocore.execution;

import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * A target whose invocation returns a {@link CompletionStage}. The async runner enforces the attempt timeout: when it
 * expires the stage's {@link java.util.concurrent.CompletableFuture} (if it is one) is cancelled and the attempt is
 * {@link FailureKind#TIMEOUT}. The invocation itself must not block; it is called on the runner's caller thread for
 * the first attempt and on a scheduler thread after a backoff.
 *
 * <p>Failures are classified as for {@link SyncExecutionTarget}; an exceptional completion is unwrapped from
 * {@link java.util.concurrent.CompletionException}/{@link java.util.concurrent.ExecutionException} first.
 *
 * @param <T> the response type
 */
public record AsyncExecutionTarget<T>(
    String targetId,
    Class<T> responseType,
    Invocation<T> invocation,
    ExecutionMode executionMode,
    int internalMaxAttempts,
    @Nullable FailureKind preflightFailure) implements ExecutionTarget<T> {

  /** One provider call, started by {@link #invoke} and finished by the returned stage. */
  @FunctionalInterface
  public interface Invocation<T> {
    CompletionStage<T> invoke(AttemptContext context) throws Exception;
  }

  public AsyncExecutionTarget {
    ExecutionTarget.validate(targetId, responseType, invocation, executionMode, internalMaxAttempts);
  }

  /** A {@link ExecutionMode#LIVE} target making exactly one provider call per invocation. */
  public static <T> AsyncExecutionTarget<T> of(String targetId, Class<T> responseType, Invocation<T> invocation) {
    return new AsyncExecutionTarget<>(targetId, responseType, invocation, ExecutionMode.LIVE, 1, null);
  }

  public AsyncExecutionTarget<T> withExecutionMode(ExecutionMode mode) {
    return new AsyncExecutionTarget<>(targetId, responseType, invocation, mode, internalMaxAttempts, preflightFailure);
  }

  public AsyncExecutionTarget<T> withInternalMaxAttempts(int attempts) {
    return new AsyncExecutionTarget<>(targetId, responseType, invocation, executionMode, attempts, preflightFailure);
  }

  public AsyncExecutionTarget<T> withPreflightFailure(FailureKind kind) {
    return new AsyncExecutionTarget<>(targetId, responseType, invocation, executionMode, internalMaxAttempts, kind);
  }

  @Override
  public String toString() {
    return "AsyncExecutionTarget[" + targetId + ", " + responseType.getSimpleName() + ", " + executionMode + "]";
  }
}
