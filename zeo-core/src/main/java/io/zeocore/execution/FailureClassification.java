package io.zeocore.execution;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link ExceptionClassifier} decided about one thrown exception: the normalized kind, whether the provider
 * may have been reached and the provider's requested delay. Carries no exception text, type or cause.
 *
 * @param kind the failure kind
 * @param dispatchStarted {@code false} only when nothing can have reached the provider (connection refused, unknown
 *     host, no route)
 * @param retryAfter the provider's Retry-After, or {@code null}; the runner uses it as the floor of the next backoff
 */
public record FailureClassification(FailureKind kind, boolean dispatchStarted, @Nullable Duration retryAfter) {

  public FailureClassification {
    Objects.requireNonNull(kind, "kind");
    if (retryAfter != null && retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter cannot be negative");
    }
  }

  /** A failure of {@code kind} after dispatch may have started, without Retry-After. */
  public static FailureClassification of(FailureKind kind) {
    return new FailureClassification(kind, true, null);
  }

  /** A failure of {@code kind} known to have happened before anything was sent. */
  public static FailureClassification beforeDispatch(FailureKind kind) {
    return new FailureClassification(kind, false, null);
  }

  /** The Retry-After, if the provider sent one. */
  public Optional<Duration> retryAfterIfAny() {
    return Optional.ofNullable(retryAfter);
  }
}
