package io.zeocore.capability;

import io.zeocore.execution.CancellationToken;
import io.zeocore.internal.SaturatingDurations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a capability handler may observe about its invocation: the host's cancellation token and an optional deadline.
 * Resilient targets build one per attempt from the runner's {@link io.zeocore.execution.AttemptContext}, so a handler
 * sees the runner's cancellation and the attempt's timeout.
 *
 * <p>The deadline starts when the context is created and is measured on {@link System#nanoTime()}. Immutable and
 * thread-safe.
 */
public final class CapabilityContext {

  private static final CapabilityContext NONE = new CapabilityContext(CancellationToken.never(), null);

  private final CancellationToken cancellation;
  private final @Nullable Duration timeout;
  private final long deadlineNanos;

  private CapabilityContext(CancellationToken cancellation, @Nullable Duration timeout) {
    this.cancellation = Objects.requireNonNull(cancellation, "cancellation");
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      throw new IllegalArgumentException("timeout must be a positive duration");
    }
    this.timeout = timeout;
    this.deadlineNanos = timeout == null ? 0 : System.nanoTime() + SaturatingDurations.toNanos(timeout);
  }

  /** A context whose deadline is {@code timeout} from now. */
  public static CapabilityContext of(CancellationToken cancellation, Duration timeout) {
    return new CapabilityContext(cancellation, Objects.requireNonNull(timeout, "timeout"));
  }

  /** A context with a token and no deadline. */
  public static CapabilityContext withoutDeadline(CancellationToken cancellation) {
    return new CapabilityContext(cancellation, null);
  }

  /** Never cancelled, no deadline. */
  public static CapabilityContext none() {
    return NONE;
  }

  public CancellationToken cancellation() {
    return cancellation;
  }

  /** Whether the host asked the work to stop. */
  public boolean isCancelled() {
    return cancellation.isCancelled();
  }

  /** The timeout this context was created with, empty when it has no deadline. */
  public Optional<Duration> timeout() {
    return Optional.ofNullable(timeout);
  }

  /** What is left until the deadline, never negative; empty when there is no deadline. */
  public Optional<Duration> remaining() {
    if (timeout == null) {
      return Optional.empty();
    }
    long left = deadlineNanos - System.nanoTime();
    return Optional.of(left <= 0 ? Duration.ZERO : Duration.ofNanos(left));
  }

  /** Whether the deadline has passed (never, without a deadline). */
  public boolean isExpired() {
    return timeout != null && deadlineNanos - System.nanoTime() <= 0;
  }


  @Override
  public String toString() {
    return "CapabilityContext[timeout=" + timeout + ", cancelled=" + cancellation.isCancelled() + "]";
  }
}
