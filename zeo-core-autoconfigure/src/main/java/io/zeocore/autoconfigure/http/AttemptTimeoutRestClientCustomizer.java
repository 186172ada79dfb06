package io.zeocore.autoconfigure.http;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.core.Ordered;
import org.springframework.web.client.RestClient;

/**
 * Adds an {@link AttemptTimeoutInterceptor} to every {@code RestClient.Builder} Spring Boot makes, after the other
 * customizers' interceptors, so that it is the closest to the exchange. Applied by Boot's {@code RestClientBuilderConfigurer} to the
 * auto-configured builder ({@code spring-boot-starter-restclient}).
 */
public final class AttemptTimeoutRestClientCustomizer implements RestClientCustomizer, Ordered {

  private final AttemptTimeoutInterceptor interceptor = new AttemptTimeoutInterceptor();

  @Override
  public void customize(RestClient.Builder builder) {
    builder.requestInterceptor(interceptor);
  }

  /** Last, so that its interceptor is the innermost one. */
  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
