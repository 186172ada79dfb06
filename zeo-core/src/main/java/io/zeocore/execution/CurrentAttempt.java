package io.zeocore.execution;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The attempt whose target the current thread is calling, so that code a target calls without being handed the
 * {@link AttemptContext} (an HTTP client's interceptor, a JDBC statement's set-up) can bound its own I/O by what is
 * left of the attempt.
 *
 * <p>The runner sets it on the thread that calls the target, for exactly the duration of the call: a sync target's
 * whole call (with {@link DeadlineMode#ENFORCED}, on the worker thread that runs it), an async target's
 * {@code invoke} (work the returned stage does later on other threads does not see it: pass it on yourself, e.g. in a
 * Reactor context). Outside a target's call {@link #get()} is empty, and the previous value is restored when the call
 * returns, so nothing leaks to the next task of a pooled thread. Every {@link ResilientRunner} sets it, with or
 * without listeners.
 *
 * <p>{@link #deadlineNanos()} is on {@link System#nanoTime()}, taken when the target's call began plus the attempt's
 * {@link AttemptContext#timeout()} ({@code min(attempt-timeout, what was left of the total)}): real time, also when
 * the runner's {@link MonotonicClock} is a test clock. Immutable.
 */
public final class CurrentAttempt {

  private static final ThreadLocal<CurrentAttempt> CURRENT = new ThreadLocal<>();

  private final AttemptContext context;
  private final long deadlineNanos;

  private CurrentAttempt(AttemptContext context, long deadlineNanos) {
    this.context = context;
    this.deadlineNanos = deadlineNanos;
  }

  /** The attempt the current thread is calling a target for, or empty outside every target's call. */
  public static Optional<CurrentAttempt> get() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** The context the runner handed the target. */
  public AttemptContext context() {
    return context;
  }

  /** When the attempt's timeout expires, on {@link System#nanoTime()}. */
  public long deadlineNanos() {
    return deadlineNanos;
  }

  /** What is left of the attempt's timeout now: zero once it has expired, never negative. */
  public Duration remaining() {
    return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
  }

  /** Whether the attempt's timeout has expired. */
  public boolean expired() {
    return deadlineNanos - System.nanoTime() <= 0;
  }

  @Override
  public String toString() {
    return "CurrentAttempt[" + context.targetId() + " #" + context.attemptNumber() + ", " + remaining().toMillis()
        + " ms left]";
  }

  /** Makes {@code context} current on this thread from now; the returned scope restores the previous value. */
  static AttemptListener.TargetScope enter(AttemptContext context) {
    Objects.requireNonNull(context, "context");
    long now = System.nanoTime();
    // capped so that deadline - now never overflows; nanoTime values are compared by difference only
    long deadline = now + Math.min(saturatedNanos(context.timeout()), Long.MAX_VALUE / 4);
    CurrentAttempt previous = CURRENT.get();
    CURRENT.set(new CurrentAttempt(context, deadline));
    return () -> set(previous);
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private static void set(@Nullable CurrentAttempt attempt) {
    if (attempt == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(attempt);
    }
  }
}
