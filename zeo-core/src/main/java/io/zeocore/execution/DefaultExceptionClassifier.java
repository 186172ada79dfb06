package io.zeocore.execution;

import io.zeocore.internal.RetryAfterHeader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * {@link ExceptionClassifier#defaults()}. Spring's HTTP response exceptions are recognized by class name and read
 * through reflection (their status code and Retry-After header only), so Spring is an optional class-path entry.
 *
 * <p>Two passes over the cause chain (outermost first, at most {@link ExceptionTypes#MAX_CAUSES} links): the specific
 * rules first (refused connection, timeouts, HTTP statuses, cancellation), the first matching link deciding; only when
 * no link matched, a connection lost after the request was sent (see {@link #isConnectionLostAfterDispatch}) is
 * {@code TRANSIENT} with {@code dispatchStarted=true}. So a refused connection or a timeout anywhere in the chain keeps
 * its own classification, whatever I/O exception wraps it.
 */
final class DefaultExceptionClassifier implements ExceptionClassifier {

  static final DefaultExceptionClassifier INSTANCE = new DefaultExceptionClassifier(Clock.systemUTC());

  private static final String[] HTTP_RESPONSE_EXCEPTIONS = {
      "org.springframework.web.client.RestClientResponseException",
      "org.springframework.web.reactive.function.client.WebClientResponseException"};

  /** How each exception class exposes an HTTP status, found once per class. */
  private static final ClassValue<StatusReader> STATUS_READERS = new ClassValue<>() {
    @Override
    protected StatusReader computeValue(Class<?> type) {
      return StatusReader.of(type);
    }
  };

  private final Clock clock;

  DefaultExceptionClassifier(Clock clock) {
    this.clock = clock;
  }

  /**
   * Clients' exceptions for a connection that closed, reset or ended early after the request was written, found by
   * class name (and superclass names) so that none of these libraries is needed on the class path.
   */
  private static final String[] CONNECTION_LOST_TYPES = {
      "reactor.netty.http.client.PrematureCloseException",
      "io.netty.handler.codec.PrematureChannelClosureException",
      "io.netty.channel.unix.Errors$NativeIoException",
      "org.apache.hc.core5.http.ConnectionClosedException",
      "org.apache.hc.core5.http.NoHttpResponseException",
      "org.apache.hc.core5.http.MalformedChunkCodingException",
      "org.apache.http.ConnectionClosedException",
      "org.apache.http.NoHttpResponseException",
      "org.apache.http.MalformedChunkCodingException",
      "org.eclipse.jetty.io.EofException"};

  /**
   * The messages with which the JDK's own HTTP clients report, as a plain {@link IOException}, a response that ended
   * early: the JDK {@code HttpClient} ({@code "HTTP/1.1 header parser received no bytes"}, {@code "EOF reached while
   * reading"}, a short fixed-length or chunked body) and {@code HttpURLConnection} ({@code "Premature EOF"},
   * {@code "Unexpected end of file from server"}). Matched as prefixes, only to classify; never copied.
   */
  private static final String[] CONNECTION_LOST_MESSAGES = {
      "HTTP/1.1 header parser received no bytes", "EOF reached while reading", "fixed content-length:",
      "chunked transfer encoding", "Premature EOF", "Unexpected end of file from server", "Connection reset",
      "Connection closed"};

  private static final ClassValue<Boolean> CONNECTION_LOST_CLASSES = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (String name : CONNECTION_LOST_TYPES) {
          if (c.getName().equals(name)) {
            return true;
          }
        }
      }
      return false;
    }
  };

  @Override
  public @Nullable FailureClassification classify(Throwable thrown) {
    Throwable link = thrown;
    for (int depth = 0; link != null && depth < ExceptionTypes.MAX_CAUSES; depth++) {
      FailureClassification classification = classifyOne(link);
      if (classification != null) {
        return classification;
      }
      Throwable cause = link.getCause();
      link = cause == link ? null : cause;
    }
    link = thrown;
    for (int depth = 0; link != null && depth < ExceptionTypes.MAX_CAUSES; depth++) {
      if (isConnectionLostAfterDispatch(link)) {
        return FailureClassification.of(FailureKind.TRANSIENT);
      }
      Throwable cause = link.getCause();
      link = cause == link ? null : cause;
    }
    return null;
  }

  /**
   * Whether {@code error} reports a connection lost once the request may have been sent: a {@link SocketException}
   * (reset, broken pipe, closed; not the pre-dispatch {@code ConnectException}, {@code NoRouteToHostException},
   * {@code BindException}, {@code PortUnreachableException}), an {@link EOFException}, a
   * {@link ClosedChannelException}, a client library's premature-close type ({@link #CONNECTION_LOST_TYPES}), or a
   * plain {@code IOException} of the JDK's HTTP clients with one of {@link #CONNECTION_LOST_MESSAGES}. Other
   * {@code IOException}s (a file not found, a JSON parse error of Jackson 2, TLS failures) are not.
   */
  static boolean isConnectionLostAfterDispatch(Throwable error) {
    if (error instanceof SocketException) {
      return !(error instanceof ConnectException || error instanceof NoRouteToHostException
          || error instanceof BindException || error instanceof PortUnreachableException);
    }
    if (error instanceof EOFException || error instanceof ClosedChannelException
        || CONNECTION_LOST_CLASSES.get(error.getClass())) {
      return true;
    }
    if (error.getClass() == IOException.class) {
      String message = error.getMessage();
      if (message != null) {
        for (String prefix : CONNECTION_LOST_MESSAGES) {
          if (message.startsWith(prefix)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private @Nullable FailureClassification classifyOne(Throwable error) {
    if (error instanceof ConnectException || error instanceof UnknownHostException
        || error instanceof NoRouteToHostException || error instanceof UnresolvedAddressException) {
      return FailureClassification.beforeDispatch(FailureKind.TRANSIENT);
    }
    if (error instanceof HttpConnectTimeoutException) {
      return FailureClassification.beforeDispatch(FailureKind.TIMEOUT);
    }
    if (error instanceof HttpTimeoutException || error instanceof SocketTimeoutException
        || error instanceof InterruptedIOException || error instanceof TimeoutException) {
      return FailureClassification.of(FailureKind.TIMEOUT);
    }
    if (error instanceof CancellationException) {
      return FailureClassification.of(FailureKind.PERMANENT);
    }
    StatusReader reader = STATUS_READERS.get(error.getClass());
    if (reader != StatusReader.NONE) {
      int status = reader.status(error);
      // below 400 the status is not the failure: WebClient reports a body that failed after a 200 this way, the
      // cause (a timeout, a reset) says what happened
      if (status >= 400) {
        FailureKind kind = FailureKind.ofHttpStatus(status);
        Duration retryAfter = kind == FailureKind.RATE_LIMIT ? parseRetryAfter(reader.retryAfter(error)) : null;
        return new FailureClassification(kind, true, retryAfter);
      }
    }
    return null;
  }

  /** {@code Retry-After} as delay-seconds or an HTTP date (a date in the past is zero); {@code null} otherwise. */
  @Nullable Duration parseRetryAfter(@Nullable String header) {
    return RetryAfterHeader.parse(header, clock);
  }

  /** Reads {@code getStatusCode().value()} and the {@code Retry-After} response header of one exception class. */
  private static final class StatusReader {

    static final StatusReader NONE = new StatusReader(null, null, null, null);

    private final @Nullable Method statusCode;
    private final @Nullable Method statusValue;
    private final @Nullable Method headers;
    private final @Nullable Method firstHeader;

    private StatusReader(@Nullable Method statusCode, @Nullable Method statusValue, @Nullable Method headers,
        @Nullable Method firstHeader) {
      this.statusCode = statusCode;
      this.statusValue = statusValue;
      this.headers = headers;
      this.firstHeader = firstHeader;
    }

    static StatusReader of(Class<?> type) {
      if (!isHttpResponseException(type)) {
        return NONE;
      }
      try {
        Method statusCode = type.getMethod("getStatusCode");
        Method statusValue = statusCode.getReturnType().getMethod("value");
        Method headers = method(type, "getResponseHeaders");
        if (headers == null) {
          headers = method(type, "getHeaders");
        }
        Method firstHeader = headers != null ? method(headers.getReturnType(), "getFirst", String.class) : null;
        return new StatusReader(statusCode, statusValue, firstHeader != null ? headers : null, firstHeader);
      } catch (NoSuchMethodException | RuntimeException notReadable) {
        return NONE;
      }
    }

    private static boolean isHttpResponseException(Class<?> type) {
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (String name : HTTP_RESPONSE_EXCEPTIONS) {
          if (c.getName().equals(name)) {
            return true;
          }
        }
      }
      return false;
    }

    private static @Nullable Method method(Class<?> type, String name, Class<?>... parameters) {
      try {
        return type.getMethod(name, parameters);
      } catch (NoSuchMethodException absent) {
        return null;
      }
    }

    /** The status, or 0 when it cannot be read. */
    int status(Throwable error) {
      if (statusCode == null || statusValue == null) {
        return 0;
      }
      try {
        Object code = statusCode.invoke(error);
        return code != null ? ((Number) statusValue.invoke(code)).intValue() : 0;
      } catch (ReflectiveOperationException | RuntimeException unreadable) {
        return 0;
      }
    }

    /** The first {@code Retry-After} header value, or {@code null}. */
    @Nullable String retryAfter(Throwable error) {
      if (headers == null || firstHeader == null) {
        return null;
      }
      try {
        Object all = headers.invoke(error);
        Object value = all != null ? firstHeader.invoke(all, "Retry-After") : null;
        return value instanceof String text ? text : null;
      } catch (ReflectiveOperationException | RuntimeException unreadable) {
        return null;
      }
    }
  }
}
