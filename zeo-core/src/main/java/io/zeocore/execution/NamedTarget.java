package io.zeocore.execution;

import java.util.Objects;

/**
 * A target declared once (for example as a Spring bean) and called with each run's input: policies name it by
 * {@link #targetId()} in their plans, and {@link TargetRegistry} binds the input when a run starts. The call is a
 * {@link SyncExecutionTarget}'s: it must apply {@link AttemptContext#timeout()} to its own I/O unless the policy's
 * deadline is {@link DeadlineMode#ENFORCED}, and what it throws is classified by the runner.
 *
 * @param targetId the id policies plan it under
 * @param inputType every input of a run must be an instance of this type
 * @param responseType every value the call returns must be an instance of this type
 * @param call one provider call
 * @param executionMode {@link ExecutionMode#LIVE} or {@link ExecutionMode#SIMULATED}
 * @param <I> the input type
 * @param <T> the response type
 */
public record NamedTarget<I, T>(
    String targetId, Class<I> inputType, Class<T> responseType, Call<I, T> call, ExecutionMode executionMode) {

  /** One provider call with the run's input. */
  @FunctionalInterface
  public interface Call<I, T> {
    T call(I input, AttemptContext context) throws Exception;
  }

  public NamedTarget {
    ExecutionTarget.validate(targetId, responseType, call, executionMode, 1);
    Objects.requireNonNull(inputType, "inputType");
  }

  /** A {@link ExecutionMode#LIVE} target making exactly one provider call per attempt. */
  public static <I, T> NamedTarget<I, T> of(String targetId, Class<I> inputType, Class<T> responseType,
      Call<I, T> call) {
    return new NamedTarget<>(targetId, inputType, responseType, call, ExecutionMode.LIVE);
  }

  public NamedTarget<I, T> withExecutionMode(ExecutionMode mode) {
    return new NamedTarget<>(targetId, inputType, responseType, call, mode);
  }

  /** The sync target of one run: this call with {@code input}. */
  public SyncExecutionTarget<T> bind(I input) {
    Call<I, T> bound = call;
    return new SyncExecutionTarget<>(targetId, responseType, context -> bound.call(input, context), executionMode, 1,
        null);
  }

  @Override
  public String toString() {
    return "NamedTarget[" + targetId + ", " + inputType.getSimpleName() + " -> " + responseType.getSimpleName() + ", "
        + executionMode + "]";
  }
}
