package io.zeocore.execution;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A target declared once (for example as a Spring bean) and called with each run's input: policies name it by
 * {@link #targetId()} in their plans, and {@link TargetRegistry} binds the input when a run starts.
 *
 * <p>A target made by {@link #of} is a {@link SyncExecutionTarget}'s call: it must apply
 * {@link AttemptContext#timeout()} to its own I/O unless the policy's deadline is {@link DeadlineMode#ENFORCED}, and
 * what it throws is classified by the runner.
 *
 * <p>A target made by {@link #ofAsync} starts its work and returns a {@link CompletionStage} ({@link #isAsync()}): in
 * an asynchronous run ({@link ZeoCoreExecutions#runAsync(String, Object, Class)}) it is an
 * {@link AsyncExecutionTarget}, whose stage the runner cancels when the attempt's timeout expires; in a synchronous
 * run ({@link ZeoCoreExecutions#run(String, Object, Class)}) the calling thread waits for the stage at most until the
 * attempt's timeout, then cancels it and records {@code TIMEOUT}: its timeout is enforced either way, whatever the
 * policy's {@code deadline}. Cancelling the stage abandons the work (a {@code CompletableFuture} cannot stop what
 * completes it) unless the work listens, as a Reactor {@code Mono}'s future does.
 *
 * @param targetId the id policies plan it under
 * @param inputType every input of a run must be an instance of this type
 * @param responseType every value the call returns must be an instance of this type
 * @param call one provider call, on the calling thread
 * @param executionMode {@link ExecutionMode#LIVE} or {@link ExecutionMode#SIMULATED}
 * @param asyncCall the asynchronous call of an {@link #ofAsync} target, {@code null} for a synchronous one
 * @param <I> the input type
 * @param <T> the response type
 */
public record NamedTarget<I, T>(
    String targetId, Class<I> inputType, Class<T> responseType, Call<I, T> call, ExecutionMode executionMode,
    @Nullable AsyncCall<I, T> asyncCall) {

  /** One provider call with the run's input. */
  @FunctionalInterface
  public interface Call<I, T> {
    T call(I input, AttemptContext context) throws Exception;
  }

  /** One provider call with the run's input, started by {@link #call} and finished by the returned stage. */
  @FunctionalInterface
  public interface AsyncCall<I, T> {
    CompletionStage<T> call(I input, AttemptContext context) throws Exception;
  }

  public NamedTarget {
    ExecutionTarget.validate(targetId, responseType, call, executionMode, 1);
    Objects.requireNonNull(inputType, "inputType");
  }

  /** A synchronous target. */
  public NamedTarget(String targetId, Class<I> inputType, Class<T> responseType, Call<I, T> call,
      ExecutionMode executionMode) {
    this(targetId, inputType, responseType, call, executionMode, null);
  }

  /** A {@link ExecutionMode#LIVE} target making exactly one provider call per attempt. */
  public static <I, T> NamedTarget<I, T> of(String targetId, Class<I> inputType, Class<T> responseType,
      Call<I, T> call) {
    return new NamedTarget<>(targetId, inputType, responseType, call, ExecutionMode.LIVE, null);
  }

  /**
   * A {@link ExecutionMode#LIVE} asynchronous target making exactly one provider call per attempt; see the class
   * comment for how its timeout is enforced. {@code call} must not block: it runs on the runner's thread.
   */
  public static <I, T> NamedTarget<I, T> ofAsync(String targetId, Class<I> inputType, Class<T> responseType,
      AsyncCall<I, T> call) {
    Objects.requireNonNull(call, "call");
    return new NamedTarget<>(targetId, inputType, responseType, (input, context) -> await(call, input, context),
        ExecutionMode.LIVE, call);
  }

  public NamedTarget<I, T> withExecutionMode(ExecutionMode mode) {
    return new NamedTarget<>(targetId, inputType, responseType, call, mode, asyncCall);
  }

  /** Whether this target was made by {@link #ofAsync}. */
  public boolean isAsync() {
    return asyncCall != null;
  }

  /** The sync target of one run: this call with {@code input}. */
  public SyncExecutionTarget<T> bind(I input) {
    Call<I, T> bound = call;
    return new SyncExecutionTarget<>(targetId, responseType, context -> bound.call(input, context), executionMode, 1,
        null);
  }

  /**
   * The async target of one run: this {@link #ofAsync} target's call with {@code input}.
   *
   * @throws IllegalStateException when this target is synchronous: its call would block the runner's thread
   */
  public AsyncExecutionTarget<T> bindAsync(I input) {
    AsyncCall<I, T> bound = asyncCall;
    if (bound == null) {
      throw new IllegalStateException("target '" + targetId + "' is synchronous; it cannot run in an async run");
    }
    return new AsyncExecutionTarget<>(targetId, responseType, context -> bound.call(input, context), executionMode, 1,
        null);
  }

  /**
   * Starts {@code call} and waits for its stage on this thread until the attempt's timeout (what is left of it when
   * the runner set the {@link CurrentAttempt}, else the full {@code context.timeout()}): on expiry the stage is
   * cancelled and a {@link TimeoutException} thrown; on an interrupt it is cancelled and the interrupt rethrown. A
   * failed stage throws its own exception, unwrapped, so that it is classified as thrown.
   */
  private static <I, T> T await(AsyncCall<I, T> call, I input, AttemptContext context) throws Exception {
    long left = CurrentAttempt.get().filter(attempt -> attempt.context() == context)
        .map(attempt -> attempt.deadlineNanos() - System.nanoTime())
        .orElseGet(() -> context.timeout().toNanos());
    CompletableFuture<T> future = call.call(input, context).toCompletableFuture();
    try {
      return future.get(Math.max(0, left), TimeUnit.NANOSECONDS);
    } catch (TimeoutException expired) {
      future.cancel(true);
      throw expired;
    } catch (InterruptedException interrupted) {
      future.cancel(true);
      throw interrupted;
    } catch (ExecutionException | CompletionException failed) {
      Throwable cause = failed.getCause() != null ? failed.getCause() : failed;
      if (cause instanceof Error error) {
        throw error;
      }
      throw cause instanceof Exception exception ? exception : failed;
    }
  }

  @Override
  public String toString() {
    return "NamedTarget[" + targetId + ", " + inputType.getSimpleName() + " -> " + responseType.getSimpleName() + ", "
        + executionMode + (asyncCall != null ? ", async" : "") + "]";
  }
}
