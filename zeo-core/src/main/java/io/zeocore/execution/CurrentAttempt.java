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

  /**
   * Each thread's slot, created once per thread and reused for every attempt it calls: entering and leaving a target's
   * call costs one thread-local read and two field writes, no allocation (the runner's hot path). Confined to its
   * thread.
   */
  private static final ThreadLocal<Slot> SLOTS = ThreadLocal.withInitial(Slot::new);

  /** The attempt a thread is calling a target for: {@code context} is {@code null} outside every target's call. */
  private static final class Slot implements AttemptListener.TargetScope {

    @Nullable AttemptContext context;
    long deadlineNanos;

    /** Leaves the outermost call. */
    @Override
    public void close() {
      context = null;
    }
  }

  private final AttemptContext context;
  private final long deadlineNanos;

  private CurrentAttempt(AttemptContext context, long deadlineNanos) {
    this.context = context;
    this.deadlineNanos = deadlineNanos;
  }

  /** The attempt the current thread is calling a target for, or empty outside every target's call. */
  public static Optional<CurrentAttempt> get() {
    Slot slot = SLOTS.get();
    AttemptContext context = slot.context;
    return context == null ? Optional.empty() : Optional.of(new CurrentAttempt(context, slot.deadlineNanos));
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
    Slot slot = SLOTS.get();
    AttemptContext outerContext = slot.context;
    long outerDeadline = slot.deadlineNanos;
    slot.context = context;
    slot.deadlineNanos = deadline;
    if (outerContext == null) {
      return slot; // the common case: no call of another runner's target around this one
    }
    return () -> {
      slot.context = outerContext;
      slot.deadlineNanos = outerDeadline;
    };
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
