package io.zeocore.autoconfigure.springai;

import io.zeocore.springai.AttemptRecordingResponseErrorHandler;
import io.zeocore.springai.SpringAiRetries;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.util.ClassUtils;

/**
 * Makes Spring AI's retry layers call the provider once inside ZeoCore attempts: every {@link RetryTemplate} bean (the
 * one behind {@code spring.ai.retry.*}) and Spring AI's shared default templates stop retrying on a thread where a
 * ZeoCore attempt runs a model, and every {@code ResponseErrorHandler} bean records the failed response's status and
 * {@code Retry-After} for classification. Outside ZeoCore attempts both behave exactly as configured.
 */
final class SpringAiRetryOwnership implements BeanPostProcessor {

  private static final boolean WEB_PRESENT = ClassUtils.isPresent(
      "org.springframework.web.client.ResponseErrorHandler", SpringAiRetryOwnership.class.getClassLoader());

  SpringAiRetryOwnership() {
    SpringAiRetries.scopeSpringAiDefaultTemplates();
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof RetryTemplate template) {
      return SpringAiRetries.oneCallInsideZeoCoreAttempts(template);
    }
    if (WEB_PRESENT) {
      return ErrorHandlers.decorate(bean);
    }
    return bean;
  }

  /** Isolates the Spring Web types. */
  private static final class ErrorHandlers {

    static Object decorate(Object bean) {
      return bean instanceof org.springframework.web.client.ResponseErrorHandler handler
          ? AttemptRecordingResponseErrorHandler.decorate(handler)
          : bean;
    }
  }
}
