package io.zeocore.execution;

import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;

/**
 * A target whose invocation answers with a stream of chunks: a {@link Flow.Publisher} that the runner subscribes to
 * once per attempt ({@link ResilientRunner#runStream}). The runner passes its subscriber's demand through (it requests
 * from the publisher only what its subscriber asked for), and cancels the publisher's subscription when the attempt
 * ends early: its first-chunk or idle timeout, the total deadline, or the subscriber's own cancellation. A publisher
 * over HTTP must close its exchange on that cancellation, so that the server sees the connection close.
 *
 * <p>The invocation must not block; it is called on the thread that asked for the first chunk or, after a backoff, on
 * a scheduler thread. Failures, signalled by {@code onError} or thrown by {@link Invocation#invoke}, are classified as
 * for {@link AsyncExecutionTarget}; every chunk must be an instance of {@link #responseType()}, otherwise the attempt is
 * {@link FailureKind#MALFORMED_RESPONSE}.
 *
 * @param <T> the type of each chunk
 */
public record StreamExecutionTarget<T>(
    String targetId,
    Class<T> responseType,
    Invocation<T> invocation,
    ExecutionMode executionMode,
    int internalMaxAttempts,
    @Nullable FailureKind preflightFailure) implements ExecutionTarget<T> {

  /** One provider call, whose chunks the returned publisher emits. */
  @FunctionalInterface
  public interface Invocation<T> {
    Flow.Publisher<T> invoke(AttemptContext context) throws Exception;
  }

  public StreamExecutionTarget {
    ExecutionTarget.validate(targetId, responseType, invocation, executionMode, internalMaxAttempts);
  }

  /** A {@link ExecutionMode#LIVE} target making exactly one provider call per invocation. */
  public static <T> StreamExecutionTarget<T> of(String targetId, Class<T> chunkType, Invocation<T> invocation) {
    return new StreamExecutionTarget<>(targetId, chunkType, invocation, ExecutionMode.LIVE, 1, null);
  }

  public StreamExecutionTarget<T> withExecutionMode(ExecutionMode mode) {
    return new StreamExecutionTarget<>(targetId, responseType, invocation, mode, internalMaxAttempts, preflightFailure);
  }

  public StreamExecutionTarget<T> withInternalMaxAttempts(int attempts) {
    return new StreamExecutionTarget<>(targetId, responseType, invocation, executionMode, attempts, preflightFailure);
  }

  public StreamExecutionTarget<T> withPreflightFailure(FailureKind kind) {
    return new StreamExecutionTarget<>(targetId, responseType, invocation, executionMode, internalMaxAttempts, kind);
  }

  @Override
  public String toString() {
    return "StreamExecutionTarget[" + targetId + ", " + responseType.getSimpleName() + ", " + executionMode + "]";
  }
}
