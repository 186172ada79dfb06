package io.zeocore.springai;

import java.time.Duration;
import java.util.Objects;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.util.backoff.BackOff;

/**
 * Makes Spring AI's {@link RetryTemplate} (the one behind {@code spring.ai.retry.*}, used by the Ollama model and
 * Spring AI's other {@code RestClient}-based models) call the provider exactly once while a ZeoCore attempt runs the
 * model, and leaves it unchanged everywhere else.
 *
 * <p>Spring AI retries a failed call up to {@code spring.ai.retry.max-attempts} more times (default 10, with
 * exponential backoff from 2 s): run under a ZeoCore policy that is a nested retry, one plan attempt turning into
 * eleven provider calls and blowing every deadline. {@link #oneCallInsideZeoCoreAttempts} wraps the template's policy
 * so that {@code shouldRetry} is {@code false} on a thread where a {@link SpringAiTargets} attempt is running; calls
 * the application makes outside ZeoCore keep Spring AI's configured retries. The Spring Boot starter applies it to
 * every {@code RetryTemplate} bean and to Spring AI's shared default templates; outside Spring Boot, apply it to the
 * template a model is built with, e.g. {@code OllamaChatModel.builder().retryTemplate(
 * SpringAiRetries.oneCallInsideZeoCoreAttempts(template))}.
 */
public final class SpringAiRetries {

  private static volatile boolean defaultsScoped;

  private SpringAiRetries() {}

  /**
   * Wraps {@code template}'s retry policy in place so that it never retries inside a ZeoCore attempt. Idempotent.
   *
   * @return {@code template}
   */
  public static RetryTemplate oneCallInsideZeoCoreAttempts(RetryTemplate template) {
    Objects.requireNonNull(template, "template");
    RetryPolicy policy = template.getRetryPolicy();
    if (!(policy instanceof OneCallInsideAttempts)) {
      template.setRetryPolicy(new OneCallInsideAttempts(policy));
    }
    return template;
  }

  /** Whether {@code template} has been made one-call inside ZeoCore attempts. */
  public static boolean isOneCallInsideZeoCoreAttempts(RetryTemplate template) {
    return template.getRetryPolicy() instanceof OneCallInsideAttempts;
  }

  /**
   * Applies {@link #oneCallInsideZeoCoreAttempts} to Spring AI's shared templates ({@code RetryUtils}'
   * {@code DEFAULT_RETRY_TEMPLATE} and {@code SHORT_RETRY_TEMPLATE}), which a model built without an explicit
   * template uses. Does nothing when {@code spring-ai-retry} is not on the class path. Their behaviour outside ZeoCore
   * attempts is unchanged.
   */
  public static void scopeSpringAiDefaultTemplates() {
    if (defaultsScoped) {
      return;
    }
    if (SpringAiFailures.SPRING_AI_RETRY_PRESENT) {
      DefaultTemplates.scope();
    }
    defaultsScoped = true;
  }

  /** A retry policy that defers to Spring AI's everywhere except inside a ZeoCore attempt. */
  private static final class OneCallInsideAttempts implements RetryPolicy {

    private final RetryPolicy delegate;

    OneCallInsideAttempts(RetryPolicy delegate) {
      this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public boolean shouldRetry(Throwable throwable) {
      return !AttemptScope.active() && delegate.shouldRetry(throwable);
    }

    @Override
    public Duration getTimeout() {
      return delegate.getTimeout();
    }

    @Override
    public BackOff getBackOff() {
      return delegate.getBackOff();
    }

    @Override
    public String toString() {
      return "OneCallInsideZeoCoreAttempts[" + delegate + "]";
    }
  }

  /** Isolates the {@code spring-ai-retry} types. */
  private static final class DefaultTemplates {

    static void scope() {
      oneCallInsideZeoCoreAttempts(org.springframework.ai.retry.RetryUtils.DEFAULT_RETRY_TEMPLATE);
      oneCallInsideZeoCoreAttempts(org.springframework.ai.retry.RetryUtils.SHORT_RETRY_TEMPLATE);
    }
  }
}
