package io.zeocore.autoconfigure.http;

import io.zeocore.execution.CurrentAttempt;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of attempt timeouts on
 * Spring's HTTP clients: every {@code RestClient.Builder} and {@code WebClient.Builder} that Spring Boot makes bounds
 * the exchanges made inside a ZeoCore attempt by what is left of it ({@link AttemptTimeoutInterceptor},
 * {@link AttemptTimeoutExchangeFilter}), and leaves every other exchange alone. Each customizer exists when its
 * client's Boot module is on the class path ({@code spring-boot-starter-restclient},
 * {@code spring-boot-starter-webclient}) and backs off when the application declares its own; all are off with
 * {@code zeocore.execution.http-client-timeouts=false}.
 */
@AutoConfiguration
@ConditionalOnClass(CurrentAttempt.class)
@ConditionalOnBooleanProperty(name = "zeocore.execution.http-client-timeouts", matchIfMissing = true)
public final class ZeoCoreHttpClientsAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.web.client.RestClient",
      "org.springframework.boot.restclient.RestClientCustomizer"})
  static class RestClientTimeouts {

    @Bean
    @ConditionalOnMissingBean
    AttemptTimeoutRestClientCustomizer zeoCoreAttemptTimeoutRestClientCustomizer() {
      return new AttemptTimeoutRestClientCustomizer();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.web.reactive.function.client.WebClient",
      "org.springframework.boot.webclient.WebClientCustomizer", "reactor.core.publisher.Mono"})
  static class WebClientTimeouts {

    @Bean
    @ConditionalOnMissingBean
    AttemptTimeoutWebClientCustomizer zeoCoreAttemptTimeoutWebClientCustomizer() {
      return new AttemptTimeoutWebClientCustomizer();
    }
  }
}
