package io.zeocore.springai;

import org.jspecify.annotations.Nullable;

/**
 * The ZeoCore attempt running a Spring AI model call on the current thread. Spring AI's retry layers that ZeoCore
 * has made scope-aware ({@link SpringAiRetries}, {@link OneCallOpenAiHttpClientCustomizer}) make exactly one call
 * while a scope is open, and the HTTP hooks record here what they saw of the failed exchange: its status and
 * Retry-After header, or the transport failure. Never provider text. One scope per attempt; not thread-safe (it is
 * confined to the attempt's thread).
 */
final class AttemptScope {

  private static final ThreadLocal<AttemptScope> CURRENT = new ThreadLocal<>();

  private final AttemptScope outer;
  private int httpRequests;
  private int status;
  private @Nullable String retryAfter;
  private @Nullable String retryAfterMillis;
  private @Nullable Throwable transportFailure;

  private AttemptScope(AttemptScope outer) {
    this.outer = outer;
  }

  /** Opens a scope on this thread; close it in a {@code finally}. */
  static AttemptScope open() {
    AttemptScope scope = new AttemptScope(CURRENT.get());
    CURRENT.set(scope);
    return scope;
  }

  /** The scope open on this thread, or {@code null} outside ZeoCore attempts. */
  static @Nullable AttemptScope current() {
    return CURRENT.get();
  }

  /** Whether a ZeoCore attempt is running a Spring AI call on this thread. */
  static boolean active() {
    return CURRENT.get() != null;
  }

  void close() {
    if (outer != null) {
      CURRENT.set(outer);
    } else {
      CURRENT.remove();
    }
  }

  /** Counts one HTTP request; {@code false} when one was already sent in this attempt (a hidden retry). */
  boolean beginHttpRequest() {
    return ++httpRequests == 1;
  }

  int httpRequests() {
    return httpRequests;
  }

  /** The first failed response of this attempt: its status and raw Retry-After headers (parsed, never copied). */
  void recordFailedResponse(int status, @Nullable String retryAfter, @Nullable String retryAfterMillis) {
    if (this.status == 0 && transportFailure == null) {
      this.status = status;
      this.retryAfter = retryAfter;
      this.retryAfterMillis = retryAfterMillis;
    }
  }

  void recordTransportFailure(Throwable failure) {
    if (this.status == 0 && transportFailure == null) {
      this.transportFailure = failure;
    }
  }

  /** The recorded HTTP status, 0 when none. */
  int status() {
    return status;
  }

  @Nullable String retryAfter() {
    return retryAfter;
  }

  @Nullable String retryAfterMillis() {
    return retryAfterMillis;
  }

  @Nullable Throwable transportFailure() {
    return transportFailure;
  }
}
