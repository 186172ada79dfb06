package io.zeocore.autoconfigure.http;

import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Adds an {@link AttemptTimeoutExchangeFilter} to every {@code WebClient.Builder} Spring Boot makes
 * ({@code spring-boot-starter-webclient}).
 */
public final class AttemptTimeoutWebClientCustomizer implements WebClientCustomizer {

  private final AttemptTimeoutExchangeFilter filter = new AttemptTimeoutExchangeFilter();

  @Override
  public void customize(WebClient.Builder builder) {
    builder.filter(filter);
  }
}
