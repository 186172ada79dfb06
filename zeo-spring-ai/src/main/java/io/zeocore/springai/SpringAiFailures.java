package io.zeocore.springai;

import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExceptionClassifier;
import io.zeocore.execution.FailureClassification;
import io.zeocore.execution.FailureKind;
import io.zeocore.internal.RetryAfterHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Classification of what a Spring AI model call throws, from structure only: HTTP statuses, headers, exception types.
 * Never from, and never into, text: Spring AI's exception messages carry the provider's response body.
 *
 * <table>
 *   <caption>Spring AI failure classification</caption>
 *   <tr><th>Failure</th><th>FailureKind</th><th>dispatchStarted</th></tr>
 *   <tr><td>HTTP 429 (OpenAI SDK {@code RateLimitException}, or the status recorded by ZeoCore's hooks, or the
 *       status at the head of a {@code TransientAiException}/{@code NonTransientAiException})</td>
 *       <td>RATE_LIMIT, with {@code Retry-After}/{@code retry-after-ms} when the hooks or the SDK saw it</td>
 *       <td>true</td></tr>
 *   <tr><td>HTTP 401, 403</td><td>AUTHENTICATION</td><td>true</td></tr>
 *   <tr><td>HTTP 408, 504</td><td>TIMEOUT</td><td>true</td></tr>
 *   <tr><td>other HTTP 5xx</td><td>TRANSIENT</td><td>true</td></tr>
 *   <tr><td>other HTTP 4xx</td><td>PERMANENT</td><td>true</td></tr>
 *   <tr><td>{@code TransientAiException} / {@code NonTransientAiException} without a status</td>
 *       <td>TRANSIENT / PERMANENT</td><td>true</td></tr>
 *   <tr><td>connection refused, unknown host, no route</td><td>TRANSIENT</td><td>false</td></tr>
 *   <tr><td>a timeout, or an I/O failure after the attempt's timeout passed</td><td>TIMEOUT</td><td>true</td></tr>
 *   <tr><td>any other I/O failure ({@code ResourceAccessException}, {@code OpenAIIoException})</td>
 *       <td>TRANSIENT</td><td>true</td></tr>
 *   <tr><td>unparseable output: {@code OpenAIInvalidDataException}, {@code HttpMessageNotReadableException}, a
 *       Jackson failure, an output converter failure, no generation or empty text</td>
 *       <td>MALFORMED_RESPONSE</td><td>true</td></tr>
 *   <tr><td>anything else</td><td>PERMANENT</td><td>true</td></tr>
 * </table>
 */
public final class SpringAiFailures {

  static final boolean SPRING_AI_RETRY_PRESENT = present("org.springframework.ai.retry.TransientAiException");
  static final boolean OPENAI_PRESENT = present("org.springframework.ai.openai.OpenAiChatModel")
      && present("com.openai.errors.OpenAIServiceException");

  private static final int MAX_CAUSES = 16;

  /** The status Spring AI's response error handlers put at the head of their message ("HTTP 429 - ..."). */
  private static final Pattern LEADING_STATUS = Pattern.compile("^(?:HTTP )?([1-9][0-9]{2}) - ");

  private static final String[] MALFORMED_TYPES = {
      "org.springframework.http.converter.HttpMessageNotReadableException",
      "tools.jackson.core.JacksonException",
      "com.fasterxml.jackson.core.JacksonException"};

  private static final ExceptionClassifier CLASSIFIER = thrown -> classify(thrown, null, Clock.systemUTC());

  private SpringAiFailures() {}

  /**
   * An {@link ExceptionClassifier} for targets the application writes itself around Spring AI calls; it has no
   * opinion ({@code null}) on exceptions that are not Spring AI's, so combine it:
   * {@code SpringAiFailures.classifier().orElse(ExceptionClassifier.defaults())}. It cannot see the Retry-After header
   * of a {@code RestClient}-based model's 429: use {@link SpringAiTargets} for that.
   */
  public static ExceptionClassifier classifier() {
    return thrown -> {
      if (!isSpringAi(thrown)) {
        return null;
      }
      return CLASSIFIER.classify(thrown);
    };
  }

  /** The attempt error of one failed call: kind and facts, with a text-free cause. */
  static AttemptError toAttemptError(Throwable thrown, @Nullable AttemptScope scope, boolean deadlinePassed,
      InstantSource clock) {
    FailureClassification classification = deadlinePassed && isTransportFailure(thrown, scope)
        ? FailureClassification.of(FailureKind.TIMEOUT)
        : classify(thrown, scope, clock);
    int status = scope != null && scope.status() > 0 ? scope.status() : statusOf(thrown);
    return new AttemptError(classification.kind(), classification.dispatchStarted(), classification.retryAfter(),
        new SpringAiCallException(thrown, status));
  }

  static FailureClassification classify(Throwable thrown, @Nullable AttemptScope scope, InstantSource clock) {
    // 1. what the OpenAI SDK reports structurally
    if (OPENAI_PRESENT) {
      for (Throwable link : chain(thrown)) {
        FailureClassification openAi = OpenAiSupport.classify(link, clock);
        if (openAi != null) {
          return openAi;
        }
      }
    }
    // 2. what ZeoCore's HTTP hooks saw of the exchange
    if (scope != null && scope.status() > 0) {
      return byStatus(scope.status(), scope.retryAfter(), scope.retryAfterMillis(), clock);
    }
    if (scope != null && scope.transportFailure() != null) {
      FailureClassification network = ExceptionClassifier.defaults().classify(scope.transportFailure());
      return network != null ? network : FailureClassification.of(FailureKind.TRANSIENT);
    }
    // 3. Spring AI's own exceptions: the status at the head of the message, nothing else of it
    if (SPRING_AI_RETRY_PRESENT) {
      for (Throwable link : chain(thrown)) {
        FailureClassification ai = RetryExceptions.classify(link, clock);
        if (ai != null) {
          return ai;
        }
      }
    }
    // 4. unparseable output
    for (Throwable link : chain(thrown)) {
      if (isMalformed(link)) {
        return FailureClassification.of(FailureKind.MALFORMED_RESPONSE);
      }
    }
    // 5. network failures and Spring's HTTP status exceptions
    FailureClassification network = ExceptionClassifier.defaults().classify(thrown);
    if (network != null) {
      return network;
    }
    if (isTransportFailure(thrown, null)) {
      return FailureClassification.of(FailureKind.TRANSIENT);
    }
    return FailureClassification.of(FailureKind.PERMANENT);
  }

  /** The reference's status mapping, with the provider's requested delay. */
  static FailureClassification byStatus(int status, @Nullable String retryAfter, @Nullable String retryAfterMillis,
      InstantSource clock) {
    FailureKind kind = kindOfStatus(status);
    Duration delay = RetryAfterHeader.parse(retryAfter, retryAfterMillis, clock);
    return new FailureClassification(kind, true, delay);
  }

  static FailureKind kindOfStatus(int status) {
    if (status == 429) {
      return FailureKind.RATE_LIMIT;
    }
    if (status == 401 || status == 403) {
      return FailureKind.AUTHENTICATION;
    }
    if (status == 408 || status == 504) {
      return FailureKind.TIMEOUT;
    }
    if (status >= 500 && status <= 599) {
      return FailureKind.TRANSIENT;
    }
    return FailureKind.PERMANENT;
  }

  /** The status at the head of a Spring AI exception message, 0 when there is none. Reads nothing else. */
  static int leadingStatus(@Nullable String message) {
    if (message == null) {
      return 0;
    }
    Matcher matcher = LEADING_STATUS.matcher(message);
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
  }

  private static boolean isTransportFailure(Throwable thrown, @Nullable AttemptScope scope) {
    if (scope != null && scope.transportFailure() != null) {
      return true;
    }
    for (Throwable link : chain(thrown)) {
      if (link instanceof IOException || link instanceof UncheckedIOException
          || (OPENAI_PRESENT && OpenAiSupport.isSdkIoFailure(link))
          || link.getClass().getName().equals("org.springframework.web.client.ResourceAccessException")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isMalformed(Throwable link) {
    for (Class<?> type = link.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
      for (String name : MALFORMED_TYPES) {
        if (type.getName().equals(name)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isSpringAi(Throwable thrown) {
    for (Throwable link : chain(thrown)) {
      String name = link.getClass().getName();
      if (name.startsWith("org.springframework.ai.") || name.startsWith("com.openai.")) {
        return true;
      }
    }
    return false;
  }

  private static int statusOf(Throwable thrown) {
    for (Throwable link : chain(thrown)) {
      int status = OPENAI_PRESENT ? OpenAiSupport.status(link) : 0;
      if (status == 0 && SPRING_AI_RETRY_PRESENT) {
        status = RetryExceptions.status(link);
      }
      if (status > 0) {
        return status;
      }
    }
    return 0;
  }

  static java.util.List<Throwable> chain(Throwable thrown) {
    java.util.List<Throwable> links = new java.util.ArrayList<>();
    Throwable link = thrown;
    for (int depth = 0; link != null && depth < MAX_CAUSES; depth++) {
      links.add(link);
      Throwable cause = link.getCause();
      link = cause == link ? null : cause;
    }
    return links;
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, SpringAiFailures.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError absent) {
      return false;
    }
  }

  /** Isolates the {@code spring-ai-retry} exception types. */
  private static final class RetryExceptions {

    static @Nullable FailureClassification classify(Throwable link, InstantSource clock) {
      boolean transientAi = link instanceof org.springframework.ai.retry.TransientAiException;
      boolean nonTransientAi = link instanceof org.springframework.ai.retry.NonTransientAiException;
      if (!transientAi && !nonTransientAi) {
        return null;
      }
      int status = leadingStatus(link.getMessage());
      if (status > 0) {
        return byStatus(status, null, null, clock);
      }
      return FailureClassification.of(transientAi ? FailureKind.TRANSIENT : FailureKind.PERMANENT);
    }

    static int status(Throwable link) {
      return link instanceof org.springframework.ai.retry.TransientAiException
          || link instanceof org.springframework.ai.retry.NonTransientAiException ? leadingStatus(link.getMessage())
          : 0;
    }
  }
}
