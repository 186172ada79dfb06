package io.zeocore.test;

import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A target that follows a script, one step per call: answer a value, fail with a kind (and a Retry-After), throw an
 * exception of the application's, hang, or do any of these after a delay. The last step repeats for every further
 * call. Written as a sentence:
 *
 * <pre>{@code
 * ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time)
 *     .failsWith(FailureKind.TIMEOUT)
 *     .rateLimited(Duration.ofSeconds(2))
 *     .answersAfter(Duration.ofMillis(300), "late but fine");
 * runner.runSync(policy, Map.of("primary", primary.sync(), ...));
 * }</pre>
 *
 * <p>Delays and hangs are on the script's {@link TimeSource} (a {@link VirtualTime} makes them instant). A sync call
 * behaves as a target that honours its attempt timeout: a delay or hang longer than {@link AttemptContext#timeout()}
 * spends exactly the timeout and fails {@code timeout}. An async call completes its future after the delay on the
 * source's scheduler; a hang never completes it, and the runner's attempt timeout ends it. Every call's
 * {@link AttemptContext} is kept ({@link #calls()}). Thread-safe.
 *
 * @param <T> the answer type
 */
public final class ScriptedTarget<T> {

  private final String targetId;
  private final Class<T> responseType;
  private final TimeSource time;
  private final List<Step<T>> steps = new CopyOnWriteArrayList<>();
  private final List<AttemptContext> calls = new CopyOnWriteArrayList<>();
  private ExecutionMode mode = ExecutionMode.LIVE;

  private ScriptedTarget(String targetId, Class<T> responseType, TimeSource time) {
    this.targetId = Objects.requireNonNull(targetId, "targetId");
    this.responseType = Objects.requireNonNull(responseType, "responseType");
    this.time = Objects.requireNonNull(time, "time");
  }

  /** A scripted target whose delays pass on {@code time} (a {@link VirtualTime}, or {@link TimeSource#system()}). */
  public static <T> ScriptedTarget<T> of(String targetId, Class<T> responseType, TimeSource time) {
    return new ScriptedTarget<>(targetId, responseType, time);
  }

  /** A scripted target on real time. */
  public static <T> ScriptedTarget<T> of(String targetId, Class<T> responseType) {
    return of(targetId, responseType, TimeSource.system());
  }

  /** One scripted call. */
  private record Step<T>(Duration delay, boolean hangs, @Nullable T value, @Nullable Exception failure) {}

  private ScriptedTarget<T> add(Step<T> step) {
    steps.add(step);
    return this;
  }

  /** The next call answers {@code value} at once. */
  public ScriptedTarget<T> answers(T value) {
    return answersAfter(Duration.ZERO, value);
  }

  /** The next call answers {@code value} after {@code delay}. */
  public ScriptedTarget<T> answersAfter(Duration delay, T value) {
    return add(new Step<>(nonNegative(delay), false, Objects.requireNonNull(value, "value"), null));
  }

  /** The next call fails at once with {@code kind} (the provider reached: {@code dispatchStarted=true}). */
  public ScriptedTarget<T> failsWith(FailureKind kind) {
    return failsAfter(Duration.ZERO, new AttemptError(kind));
  }

  /** The next call fails at once with {@code kind}, without reaching the provider ({@code dispatchStarted=false}). */
  public ScriptedTarget<T> failsBeforeDispatch(FailureKind kind) {
    return failsAfter(Duration.ZERO, new AttemptError(kind, false));
  }

  /** The next call fails at once {@code rate_limit} with the provider's Retry-After. */
  public ScriptedTarget<T> rateLimited(Duration retryAfter) {
    return failsAfter(Duration.ZERO, new AttemptError(FailureKind.RATE_LIMIT, true, nonNegative(retryAfter)));
  }

  /**
   * The next call throws {@code failure} after {@code delay}: an {@link AttemptError}, or an exception of the
   * application's that the policy's failure kinds and the runner's classifier classify.
   */
  public ScriptedTarget<T> failsAfter(Duration delay, Exception failure) {
    return add(new Step<>(nonNegative(delay), false, null, Objects.requireNonNull(failure, "failure")));
  }

  /** The next call throws {@code failure} at once. */
  public ScriptedTarget<T> throwing(Exception failure) {
    return failsAfter(Duration.ZERO, failure);
  }

  /** The next call never answers: it spends its whole attempt timeout. */
  public ScriptedTarget<T> hangs() {
    return add(new Step<>(Duration.ZERO, true, null, null));
  }

  /** Labels the target {@code SIMULATED} (a policy must allow simulated targets to run it). */
  public ScriptedTarget<T> simulated() {
    this.mode = ExecutionMode.SIMULATED;
    return this;
  }

  /** The target id. */
  public String targetId() {
    return targetId;
  }

  /** Every call so far, in order, with the attempt context it was given. */
  public List<AttemptContext> calls() {
    return List.copyOf(calls);
  }

  /** How many times the target was called. */
  public int callCount() {
    return calls.size();
  }

  /** The step of the call just made (the last step repeats). */
  private Step<T> step(AttemptContext context) {
    calls.add(context);
    if (steps.isEmpty()) {
      throw new IllegalStateException("target '" + targetId + "' was called but has no script: give it answers(...),"
          + " failsWith(...), hangs() or another step");
    }
    return steps.get(Math.min(calls.size(), steps.size()) - 1);
  }

  /** This script as a sync target. */
  public SyncExecutionTarget<T> sync() {
    return SyncExecutionTarget.of(targetId, responseType, this::callSync).withExecutionMode(mode);
  }

  /** This script as an async target. */
  public AsyncExecutionTarget<T> async() {
    return AsyncExecutionTarget.of(targetId, responseType, this::callAsync).withExecutionMode(mode);
  }

  /**
   * This script as a streamed target: each answer is delivered as one chunk, each failure before any chunk. For
   * streams of several chunks use the application's own publisher.
   */
  public StreamExecutionTarget<T> stream() {
    return StreamExecutionTarget.of(targetId, responseType, context -> subscriber -> {
      CompletableFuture<T> answer = callAsync(context);
      subscriber.onSubscribe(new java.util.concurrent.Flow.Subscription() {
        private boolean done;

        @Override
        public synchronized void request(long n) {
          if (done || n <= 0) {
            return;
          }
          done = true;
          answer.whenComplete((value, thrown) -> {
            if (thrown != null) {
              subscriber.onError(thrown instanceof java.util.concurrent.CompletionException && thrown.getCause() != null
                  ? thrown.getCause() : thrown);
            } else {
              subscriber.onNext(value);
              subscriber.onComplete();
            }
          });
        }

        @Override
        public synchronized void cancel() {
          done = true;
          answer.cancel(false);
        }
      });
    }).withExecutionMode(mode);
  }

  /**
   * Plays the next step for {@code context} as a sync call does ({@link #sync()}): for wrappers such as the Spring
   * test annotation's registered targets.
   */
  public T call(AttemptContext context) throws Exception {
    return callSync(context);
  }

  /** Forgets every step and call: the script starts empty again. */
  public ScriptedTarget<T> reset() {
    steps.clear();
    calls.clear();
    return this;
  }

  /** The type of the answers. */
  public Class<T> responseType() {
    return responseType;
  }

  private T callSync(AttemptContext context) throws Exception {
    Step<T> step = step(context);
    Duration timeout = context.timeout();
    if (step.hangs() || step.delay().compareTo(timeout) >= 0) {
      time.sleep(timeout);
      throw new AttemptError(FailureKind.TIMEOUT);
    }
    if (!step.delay().isZero()) {
      time.sleep(step.delay());
    }
    return outcome(step);
  }

  private T outcome(Step<T> step) throws Exception {
    if (step.failure() != null) {
      throw step.failure();
    }
    return Objects.requireNonNull(step.value(), "a step answers or fails");
  }

  private CompletableFuture<T> callAsync(AttemptContext context) {
    Step<T> step = step(context);
    CompletableFuture<T> answer = new CompletableFuture<>();
    if (step.hangs()) {
      return answer;
    }
    Runnable settle = () -> {
      if (step.failure() != null) {
        answer.completeExceptionally(step.failure());
      } else {
        answer.complete(Objects.requireNonNull(step.value(), "a step answers or fails"));
      }
    };
    if (step.delay().isZero()) {
      settle.run();
    } else {
      time.scheduler().schedule(settle, step.delay().toNanos(), TimeUnit.NANOSECONDS);
    }
    return answer;
  }

  private static Duration nonNegative(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a delay cannot be negative: " + duration);
    }
    return duration;
  }

  @Override
  public String toString() {
    return "ScriptedTarget[" + targetId + ", " + steps.size() + " step(s), " + calls.size() + " call(s)]";
  }
}
