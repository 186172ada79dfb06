package io.zeocore.llm;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * One provider call failed. Carries only structured facts — why ({@link #reason()}), the HTTP status, the provider's
 * Retry-After and whether the request may have reached the provider ({@link #requestSent()}) — and never provider
 * text: the message is built from those facts alone, response bodies are never read into it, and a cause is kept only
 * when it is a JDK transport exception whose message cannot contain response bytes (a refused connection, a JDK
 * timeout). Other causes are dropped and only their class name appears in the message.
 */
public final class LlmCallException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Why a call failed. */
  public enum Reason {
    /**
     * The client cannot make the call as configured (for example an OpenAI client without an API key). Nothing was
     * sent.
     */
    CONFIGURATION,
    /** No connection could be established (refused, unresolvable host, no route, TLS handshake). Nothing was sent. */
    CONNECT_FAILED,
    /** The call's timeout expired before a complete response arrived. */
    TIMEOUT,
    /** The provider answered with a status outside 2xx; see {@link #status()} and {@link #retryAfter()}. */
    HTTP_STATUS,
    /** A 2xx response whose body is not the provider's JSON shape, carries no or empty content, or is too large. */
    MALFORMED_RESPONSE,
    /** The connection failed after the request may have been sent (reset, closed early, protocol error). */
    TRANSPORT,
    /** The caller's cancellation token fired while the call was in flight; the exchange was abandoned. */
    CANCELLED
  }

  private final String provider;
  private final Reason reason;
  private final int status;
  private final transient @Nullable Duration retryAfter;
  private final boolean requestSent;

  LlmCallException(String provider, Reason reason, int status, @Nullable Duration retryAfter, boolean requestSent,
      @Nullable String detail, @Nullable Throwable cause) {
    super(message(provider, reason, status, requestSent, detail), cause);
    this.provider = Objects.requireNonNull(provider, "provider");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.status = status;
    this.retryAfter = retryAfter;
    this.requestSent = requestSent;
  }

  /**
   * A failure reported by an {@link LlmClient} implementation outside this package. {@code detail} must not contain
   * provider text; it is appended to the message.
   */
  public static LlmCallException of(String provider, Reason reason, boolean requestSent, String detail) {
    if (reason == Reason.HTTP_STATUS) {
      throw new IllegalArgumentException("use httpStatus(...) for HTTP_STATUS failures");
    }
    return new LlmCallException(provider, reason, 0, null, requestSent, detail, null);
  }

  /** A non-2xx response: always sent. */
  public static LlmCallException httpStatus(String provider, int status, @Nullable Duration retryAfter) {
    if (status < 100 || status > 999) {
      throw new IllegalArgumentException("status must be a three-digit HTTP status");
    }
    if (retryAfter != null && retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter cannot be negative");
    }
    return new LlmCallException(provider, Reason.HTTP_STATUS, status, retryAfter, true, null, null);
  }

  private static String message(String provider, Reason reason, int status, boolean sent, @Nullable String detail) {
    StringBuilder message = new StringBuilder(provider).append(" chat call failed: ");
    message.append(reason.name().toLowerCase(Locale.ROOT));
    if (reason == Reason.HTTP_STATUS) {
      message.append(' ').append(status);
    }
    if (detail != null) {
      message.append(" (").append(detail).append(')');
    }
    message.append(sent ? "" : "; nothing was sent");
    return message.toString();
  }

  /** The provider family, e.g. {@code ollama} or {@code openai}. */
  public String provider() {
    return provider;
  }

  public Reason reason() {
    return reason;
  }

  /** The HTTP status of a {@link Reason#HTTP_STATUS} failure, empty otherwise. */
  public OptionalInt status() {
    return reason == Reason.HTTP_STATUS ? OptionalInt.of(status) : OptionalInt.empty();
  }

  /**
   * The provider's requested delay before the next call ({@code Retry-After} as seconds or an HTTP date, or
   * OpenAI's {@code retry-after-ms}), never negative; empty when the response carried none or it did not parse.
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /**
   * Whether the request may have reached the provider. {@code false} only when it certainly did not (configuration
   * error, connection not established, cancelled before sending).
   */
  public boolean requestSent() {
    return requestSent;
  }
}
