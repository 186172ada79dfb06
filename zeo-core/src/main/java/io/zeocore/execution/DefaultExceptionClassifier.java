package io.zeocore.execution;

import io.zeocore.internal.RetryAfterHeader;
import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * {@link ExceptionClassifier#defaults()}. Spring's HTTP response exceptions are recognized by class name and read
 * through reflection (their status code and Retry-After header only), so Spring is an optional class-path entry.
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
    return null;
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

    private final Method statusCode;
    private final Method statusValue;
    private final Method headers;
    private final Method firstHeader;

    private StatusReader(Method statusCode, Method statusValue, Method headers, Method firstHeader) {
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
      try {
        Object code = statusCode.invoke(error);
        return code != null ? ((Number) statusValue.invoke(code)).intValue() : 0;
      } catch (ReflectiveOperationException | RuntimeException unreadable) {
        return 0;
      }
    }

    /** The first {@code Retry-After} header value, or {@code null}. */
    @Nullable String retryAfter(Throwable error) {
      if (headers == null) {
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
