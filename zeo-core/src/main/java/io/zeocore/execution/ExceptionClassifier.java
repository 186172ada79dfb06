package io.zeocore.execution;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Maps what a target threw to a {@link FailureKind} and {@code dispatchStarted}: how code ZeoCore did not write (a
 * {@code RestClient} call, a JDBC query, an SDK) takes part in retries and fallbacks.
 *
 * <p>The runner consults it for every exception a target throws that is not an {@link AttemptError} (an
 * {@code AttemptError} always keeps its own fields), after unwrapping {@link java.util.concurrent.CompletionException}
 * and {@link java.util.concurrent.ExecutionException}, and after the policy's own
 * {@link ExecutionPolicy#failureKinds()} mapping, which wins on kind. A {@code null} answer means "no opinion": the
 * attempt is then {@link FailureKind#PERMANENT}. A {@link FailureKind#CANCELLED} answer is honoured only when the host
 * did cancel the run (its token, an interrupt or the run's future); otherwise it becomes {@code PERMANENT}. A
 * classifier that throws is treated as having no opinion (its exception's class name is logged at WARN).
 *
 * <p>Classifiers must be fast, thread-safe and free of side effects, and must never copy exception text into the
 * classification: ZeoCore's evidence holds kinds and codes only.
 *
 * @see #defaults()
 */
@FunctionalInterface
public interface ExceptionClassifier {

  /**
   * Classifies {@code thrown}.
   *
   * @param thrown what the target threw, never {@code null} and never an {@link AttemptError}
   * @return the classification, or {@code null} for no opinion
   */
  @Nullable FailureClassification classify(Throwable thrown);

  /** This classifier, then {@code next} when this one has no opinion. */
  default ExceptionClassifier orElse(ExceptionClassifier next) {
    Objects.requireNonNull(next, "next");
    return thrown -> {
      FailureClassification first = classify(thrown);
      return first != null ? first : next.classify(thrown);
    };
  }

  /**
   * The classification a network engineer expects, looking at the exception and then its causes (outermost first;
   * the first link that matches decides):
   * <ul>
   *   <li>{@link java.net.ConnectException}, {@link java.net.UnknownHostException},
   *       {@link java.net.NoRouteToHostException}, {@link java.nio.channels.UnresolvedAddressException} →
   *       {@code TRANSIENT} with {@code dispatchStarted=false};</li>
   *   <li>{@link java.net.http.HttpConnectTimeoutException} → {@code TIMEOUT} with {@code dispatchStarted=false};
   *       {@link java.net.http.HttpTimeoutException}, {@link java.net.SocketTimeoutException}, any other
   *       {@link java.io.InterruptedIOException} and {@link java.util.concurrent.TimeoutException} →
   *       {@code TIMEOUT};</li>
   *   <li>Spring's {@code RestClientResponseException} and {@code WebClientResponseException} (found by class name,
   *       so Spring is not needed on the class path) by HTTP status, like ZeoCore's LLM clients: 429
   *       {@code RATE_LIMIT} with the {@code Retry-After} header (seconds or HTTP date), 401/403
   *       {@code AUTHENTICATION}, 408/504 {@code TIMEOUT}, other 5xx {@code TRANSIENT}, other statuses
   *       {@code PERMANENT}; a 2xx status on such an exception (WebClient's "200 OK …, but response failed") is a
   *       body that failed, classified by its cause. Spring's {@code ResourceAccessException} matches through its
   *       cause (for example a {@code ConnectException});</li>
   *   <li>{@link java.util.concurrent.CancellationException} → {@code PERMANENT} (the host's own cancellation is
   *       recognized by the runner before any classifier is asked);</li>
   *   <li>only when no link matched a rule above: a connection lost after the request may have been sent →
   *       {@code TRANSIENT} with {@code dispatchStarted=true}. That is a {@link java.net.SocketException} (reset,
   *       broken pipe, "Unexpected end of file from server"), an {@link java.io.EOFException}, a
   *       {@link java.nio.channels.ClosedChannelException}, reactor-netty's {@code PrematureCloseException} (inside
   *       Spring's {@code WebClientRequestException}), Netty's native I/O exception, Apache HttpClient's
   *       {@code NoHttpResponseException} / {@code ConnectionClosedException} / {@code MalformedChunkCodingException},
   *       Jetty's {@code EofException} (all by class name), or a plain {@link java.io.IOException} of the JDK's
   *       HTTP clients for a response that ended early ({@code "HTTP/1.1 header parser received no bytes"}, a short
   *       fixed-length or chunked body, {@code HttpURLConnection}'s {@code "Premature EOF"}); inside Spring's
   *       {@code ResourceAccessException} or {@code RestClientException} alike. Every runnable policy is read-only
   *       or advisory, so such a failure may be retried; a refused connection keeps {@code dispatchStarted=false}
   *       and a timeout stays {@code TIMEOUT}, whatever wraps them. Other {@code IOException}s (a missing file, a
   *       Jackson 2 parse error, a TLS failure) are not matched;</li>
   *   <li>anything else → no opinion, hence {@code PERMANENT}.</li>
   * </ul>
   */
  static ExceptionClassifier defaults() {
    return DefaultExceptionClassifier.INSTANCE;
  }

  /**
   * A classifier from exception types to kinds: a type matches itself and its subclasses, the most specific mapped
   * type wins, and the exception is tried before its causes (outermost first). A match has
   * {@code dispatchStarted=true} and no Retry-After; no match is no opinion. Combine it with {@link #orElse}, e.g.
   * {@code ExceptionClassifier.byType(Map.of(QuotaExceeded.class, RATE_LIMIT)).orElse(ExceptionClassifier.defaults())}.
   *
   * @throws NullPointerException for a null type or kind
   */
  static ExceptionClassifier byType(Map<Class<? extends Throwable>, FailureKind> kinds) {
    Map<Class<? extends Throwable>, FailureKind> copy = Map.copyOf(kinds);
    return thrown -> {
      FailureKind kind = ExceptionTypes.find(copy, thrown);
      return kind != null ? FailureClassification.of(kind) : null;
    };
  }
}
