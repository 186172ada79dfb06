package io.zeocore.execution;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * A classified attempt failure: only the normalized fields, never the exception's text or type.
 *
 * @param retryAfter the provider's Retry-After, or {@code null}
 */
record Failure(FailureKind kind, boolean dispatchStarted, Duration retryAfter) {

  static Failure of(FailureKind kind) {
    return new Failure(kind, true, null);
  }

  /**
   * Classifies what a target threw: {@link AttemptError} keeps its fields; timeouts ({@link TimeoutException},
   * {@link InterruptedIOException} such as socket and HTTP timeouts) become {@code TIMEOUT}; everything else
   * {@code PERMANENT} with dispatch started.
   */
  static Failure classify(Throwable thrown) {
    Throwable error = unwrap(thrown);
    if (error instanceof AttemptError attemptError) {
      return new Failure(attemptError.kind(), attemptError.dispatchStarted(), attemptError.retryAfter().orElse(null));
    }
    if (error instanceof TimeoutException || error instanceof InterruptedIOException) {
      return of(FailureKind.TIMEOUT);
    }
    if (error instanceof CancellationException) {
      return of(FailureKind.CANCELLED);
    }
    return of(FailureKind.PERMANENT);
  }

  /** Strips the wrappers that futures put around a target's own exception. */
  static Throwable unwrap(Throwable thrown) {
    Throwable error = thrown;
    while ((error instanceof CompletionException || error instanceof ExecutionException) && error.getCause() != null) {
      error = error.getCause();
    }
    return error;
  }
}
