package io.zeocore.autoconfigure.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Attempt timeouts on Boot's {@code RestClient.Builder} and {@code WebClient.Builder} against a real loopback server
 * that stalls until the test releases it: inside an attempt an exchange ends {@code TIMEOUT} at the attempt's timeout
 * and the plan falls back, without {@code deadline: enforced}; outside every attempt the same client waits as long as
 * the server takes. Bounds are generous: the machine may be loaded.
 */
class AttemptTimeoutsTests {

  private static final String SLOW_ANSWER = "the slow answer";

  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger stalled = new AtomicInteger();
  private final ExecutorService serverThreads = Executors.newCachedThreadPool();
  private HttpServer server;

  @BeforeEach
  void startStallingServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(serverThreads);
    // accepts the request and answers nothing until released
    server.createContext("/stall", exchange -> {
      stalled.incrementAndGet();
      awaitRelease();
      reply(exchange, "too late");
    });
    // sends the headers and the first bytes of a 100-byte body, then nothing until released
    server.createContext("/stall-body", exchange -> {
      exchange.sendResponseHeaders(200, 100);
      OutputStream out = exchange.getResponseBody();
      out.write("0123456789".getBytes(StandardCharsets.UTF_8));
      out.flush();
      awaitRelease();
      exchange.close();
    });
    // answers after a second: longer than the 300 ms attempts below
    server.createContext("/slow", exchange -> {
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      reply(exchange, SLOW_ANSWER);
    });
    server.start();
  }

  @AfterEach
  void stopServer() {
    release.countDown();
    server.stop(0);
    serverThreads.shutdownNow();
  }

  private void awaitRelease() {
    try {
      release.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void reply(com.sun.net.httpserver.HttpExchange exchange, String text) throws IOException {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** An application calling the server through Boot's builders, planned [remote, fallback] with 300 ms attempts. */
  @Configuration(proxyBeanMethods = false)
  static class Application {

    /** The JDK HttpClient (Boot's choice without other client libraries), or Reactor Netty's. */
    @Bean
    ClientHttpRequestFactoryBuilder<?> httpClient(@Value("${test.http-client:jdk}") String client) {
      return client.equals("reactor") ? ClientHttpRequestFactoryBuilder.reactor() : ClientHttpRequestFactoryBuilder.jdk();
    }

    @Bean
    RestClient remoteRestClient(RestClient.Builder http, @Value("${remote.url}") String url) {
      return http.baseUrl(url).build();
    }

    @Bean
    WebClient remoteWebClient(WebClient.Builder http, @Value("${remote.url}") String url) {
      return http.baseUrl(url).build();
    }

    @Bean
    NamedTarget<String, String> restRemote(RestClient remoteRestClient) {
      return NamedTarget.of("rest-remote", String.class, String.class, (path, context) ->
          remoteRestClient.get().uri(path).retrieve().body(String.class));
    }

    @Bean
    NamedTarget<String, String> webRemote(WebClient remoteWebClient) {
      return NamedTarget.of("web-remote", String.class, String.class, (path, context) ->
          remoteWebClient.get().uri(path).retrieve().bodyToMono(String.class).block());
    }

    @Bean
    NamedTarget<String, String> fallback() {
      return NamedTarget.of("fallback", String.class, String.class, (path, context) -> "fallback");
    }
  }

  private ApplicationContextRunner application() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
            ZeoCoreHttpClientsAutoConfiguration.class, RestClientAutoConfiguration.class,
            WebClientAutoConfiguration.class))
        .withUserConfiguration(Application.class)
        .withPropertyValues("remote.url=" + baseUrl(),
            "zeocore.execution.configs.default.total-timeout=30s",
            "zeocore.execution.configs.default.attempt-timeout=300ms",
            "zeocore.execution.policies.rest.attempt-targets=rest-remote,fallback",
            "zeocore.execution.policies.web.attempt-targets=web-remote,fallback");
  }

  private static void assertTimedOutAtTheAttemptTimeoutAndFellBack(ResilientExecutionResult<String> result) {
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo("fallback");
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind).containsExactly(FailureKind.TIMEOUT, null);
    AttemptRecord timedOut = result.attempts().get(0);
    assertThat(timedOut.dispatchStarted()).isTrue();
    // about the 300 ms attempt timeout: not before it, and far from the minute the server would stall
    assertThat(timedOut.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(290)).isLessThan(Duration.ofSeconds(15));
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void aRestClientCallInsideAnAttemptEndsTimeoutAtTheAttemptTimeoutAndThePlanFallsBack() {
    application().run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      assertTimedOutAtTheAttemptTimeoutAndFellBack(executions.run("rest", "/stall", String.class));
      // the thread is clean for the next run: a fresh attempt has its own 300 ms
      assertTimedOutAtTheAttemptTimeoutAndFellBack(executions.run("rest", "/stall", String.class));
    });
  }

  @Test
  void aRestClientOnReactorNettyIsBoundedTheSameWay() {
    application().withPropertyValues("test.http-client=reactor").run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      assertTimedOutAtTheAttemptTimeoutAndFellBack(executions.run("rest", "/stall", String.class));
      assertTimedOutAtTheAttemptTimeoutAndFellBack(executions.run("rest", "/stall-body", String.class));
    });
  }

  @Test
  void aRestClientBodyThatStallsAfterTheHeadersEndsTimeoutToo() {
    application().run(context -> assertTimedOutAtTheAttemptTimeoutAndFellBack(
        context.getBean(ZeoCoreExecutions.class).run("rest", "/stall-body", String.class)));
  }

  @Test
  void theSameRestClientOutsideAnyAttemptIsNotLimited() {
    application().run(context -> {
      RestClient client = context.getBean("remoteRestClient", RestClient.class);
      long started = System.nanoTime();

      assertThat(client.get().uri("/slow").retrieve().body(String.class)).isEqualTo(SLOW_ANSWER);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
    });
  }

  @Test
  void aWebClientCallInsideAnAttemptEndsTimeoutAtTheAttemptTimeoutAndThePlanFallsBack() {
    application().run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      assertTimedOutAtTheAttemptTimeoutAndFellBack(executions.run("web", "/stall", String.class));
      assertTimedOutAtTheAttemptTimeoutAndFellBack(executions.run("web", "/stall-body", String.class));
    });
  }

  @Test
  void theSameWebClientOutsideAnyAttemptIsNotLimited() {
    application().run(context -> {
      WebClient client = context.getBean("remoteWebClient", WebClient.class);

      assertThat(client.get().uri("/slow").retrieve().bodyToMono(String.class).block()).isEqualTo(SLOW_ANSWER);
    });
  }

  @Test
  void anAnsweringServerIsNotCutShortInsideAnAttempt() {
    application().withPropertyValues("zeocore.execution.configs.default.attempt-timeout=20s").run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      assertThat(executions.run("rest", "/slow", String.class).value()).isEqualTo(SLOW_ANSWER);
      assertThat(executions.run("web", "/slow", String.class).value()).isEqualTo(SLOW_ANSWER);
    });
  }

  @Test
  void eachCustomizerBacksOffWithoutItsClientModuleWhenSwitchedOffOrWhenTheApplicationHasItsOwn() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreHttpClientsAutoConfiguration.class))
        .run(context -> assertThat(context).hasSingleBean(AttemptTimeoutRestClientCustomizer.class)
            .hasSingleBean(AttemptTimeoutWebClientCustomizer.class));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreHttpClientsAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader(org.springframework.boot.restclient.RestClientCustomizer.class,
            reactor.core.publisher.Mono.class))
        .run(context -> assertThat(context).doesNotHaveBean(AttemptTimeoutRestClientCustomizer.class)
            .doesNotHaveBean(AttemptTimeoutWebClientCustomizer.class));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreHttpClientsAutoConfiguration.class))
        .withPropertyValues("zeocore.execution.http-client-timeouts=false")
        .run(context -> assertThat(context).doesNotHaveBean(AttemptTimeoutRestClientCustomizer.class)
            .doesNotHaveBean(AttemptTimeoutWebClientCustomizer.class));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreHttpClientsAutoConfiguration.class))
        .withBean("mine", AttemptTimeoutRestClientCustomizer.class, AttemptTimeoutRestClientCustomizer::new)
        .run(context -> assertThat(context).hasSingleBean(AttemptTimeoutRestClientCustomizer.class)
            .hasBean("mine"));
  }
}
