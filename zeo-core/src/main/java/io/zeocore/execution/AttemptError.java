package io.zeocore.execution;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a target to report a normalized attempt failure. The message is only the kind's wire value (e.g.
 * {@code timeout}) so that no provider text is carried; the runner copies only {@link #kind()},
 * {@link #dispatchStarted()} and {@link #retryAfter()} into evidence and never the cause.
 *
 * <p>{@code dispatchStarted} says whether the provider may have been reached: {@code false} means the failure happened
 * before anything was sent (spawn failure, connection refused, missing credentials).
 *
 * <p>A negative {@code retryAfter} is rejected here with {@link IllegalArgumentException} (the reference raised
 * inside the constructor too; when a target does that while building the error, the attempt ends
 * {@link FailureKind#PERMANENT}).
 */
public class AttemptError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final FailureKind kind;
  private final boolean dispatchStarted;
  private final transient @Nullable Duration retryAfter;

  /** A failure of {@code kind} after dispatch started, without Retry-After. */
  public AttemptError(FailureKind kind) {
    this(kind, true, null, null);
  }

  /** A failure of {@code kind}; {@code dispatchStarted=false} means nothing reached the provider. */
  public AttemptError(FailureKind kind, boolean dispatchStarted) {
    this(kind, dispatchStarted, null, null);
  }

  /**
   * A failure with an optional server-mandated delay before the next attempt.
   *
   * @param retryAfter the provider's Retry-After, or {@code null}; the runner uses it as the floor of the backoff
   */
  public AttemptError(FailureKind kind, boolean dispatchStarted, @Nullable Duration retryAfter) {
    this(kind, dispatchStarted, retryAfter, null);
  }

  /**
   * A failure that keeps its cause for the host's debugging. The cause is never copied into records, results,
   * events or log lines by ZeoCore.
   */
  public AttemptError(FailureKind kind, boolean dispatchStarted, @Nullable Duration retryAfter,
      @Nullable Throwable cause) {
    super(Objects.requireNonNull(kind, "kind").wireValue(), cause);
    if (retryAfter != null && retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter cannot be negative");
    }
    this.kind = kind;
    this.dispatchStarted = dispatchStarted;
    this.retryAfter = retryAfter;
  }

  public FailureKind kind() {
    return kind;
  }

  public boolean dispatchStarted() {
    return dispatchStarted;
  }

  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
