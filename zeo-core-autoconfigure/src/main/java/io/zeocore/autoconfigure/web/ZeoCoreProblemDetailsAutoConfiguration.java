package io.zeocore.autoconfigure.web;

import io.zeocore.execution.ExecutionFailedException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of
 * {@link ExecutionProblemDetails}: in a Spring MVC or WebFlux application (Spring Web on the class path), an
 * {@link ExecutionFailedException} a controller throws is answered with a {@code ProblemDetail}. Nothing is added to
 * other applications; a bean of type {@link ExecutionProblemDetails} replaces it, and {@code zeocore.execution.enabled=false}
 * switches it off with the rest of the execution support.
 */
@AutoConfiguration
@ConditionalOnClass({ExecutionFailedException.class, ProblemDetail.class})
@ConditionalOnWebApplication
@ConditionalOnBooleanProperty(name = "zeocore.execution.enabled", matchIfMissing = true)
public final class ZeoCoreProblemDetailsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ExecutionProblemDetails zeoCoreExecutionProblemDetails() {
    return new ExecutionProblemDetails();
  }
}
