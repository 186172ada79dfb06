package io.zeocore.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.autoconfigure.execution.ZeoCoreReactiveExecutions;
import io.zeocore.autoconfigure.execution.ZeoCoreTarget;
import io.zeocore.autoconfigure.http.ZeoCoreHttpClientsAutoConfiguration;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExceptionClassifier;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Mono;

/** The README's "Your own target" example, verbatim, run against a loopback HTTP server. */
class ReadmeExamplesTests {

  // ---- README: "Your own target" (keep identical) ----

  @Configuration(proxyBeanMethods = false)
  static class SummaryTargets {

    @Bean
    NamedTarget<String, String> summarizer(RestClient.Builder http, @Value("${summarizer.url}") String url) {
      RestClient client = http.baseUrl(url).build();
      return NamedTarget.of("summarizer", String.class, String.class, (text, context) ->
          client.post().uri("/summaries").body(text).retrieve().body(String.class));
    }

    @Bean
    NamedTarget<String, String> firstSentence() {
      return NamedTarget.of("first-sentence", String.class, String.class, (text, context) ->
          text.split("(?<=[.!?])\\s", 2)[0]);
    }
  }

  @Service
  static class Summaries {

    private final ZeoCoreExecutions executions;

    Summaries(ZeoCoreExecutions executions) {
      this.executions = executions;
    }

    Optional<String> summarize(String text) {
      return executions.run("summarize", text, String.class).valueIfSucceeded();
    }
  }

  // ---- README: "Annotated targets, async targets and a Mono entry point" (the methods identical) ----

  record Stock(String sku, int count) {}

  interface StockCache {
    Mono<Stock> get(String sku);
  }

  static class Inventory {

    private final RestClient warehouse;
    private final StockCache cache;

    Inventory(RestClient warehouse, StockCache cache) {
      this.warehouse = warehouse;
      this.cache = cache;
    }

    @ZeoCoreTarget("inventory")
    Stock lookUp(String sku) { return warehouse.get().uri("/stock/{sku}", sku).retrieve().body(Stock.class); }

    @ZeoCoreTarget("inventory-cache")
    Mono<Stock> cached(String sku, AttemptContext attempt) { return cache.get(sku); }
  }

  // the README's one-line classifier bean
  static class QuotaExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  static ExceptionClassifier quotaAware() {
    return ExceptionClassifier.byType(Map.of(QuotaExceededException.class, FailureKind.RATE_LIMIT))
        .orElse(ExceptionClassifier.defaults());
  }

  // ---- the test ----

  /** What an application's Boot auto-configuration would provide. */
  @Configuration(proxyBeanMethods = false)
  static class Application {

    @Bean
    ClientHttpRequestFactoryBuilder<?> jdkHttpClient() {
      return ClientHttpRequestFactoryBuilder.jdk();
    }

    @Bean
    Summaries summaries(ZeoCoreExecutions executions) {
      return new Summaries(executions);
    }
  }

  private HttpServer server;
  private final AtomicInteger status = new AtomicInteger(200);
  private final java.util.concurrent.atomic.AtomicBoolean stall = new java.util.concurrent.atomic.AtomicBoolean();
  private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

  @BeforeEach
  void startSummarizer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.createContext("/stock", exchange -> {
      exchange.sendResponseHeaders(503, -1);
      exchange.close();
    });
    server.createContext("/summaries", exchange -> {
      if (stall.get()) {
        try {
          release.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      byte[] body = "a summary".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status.get(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  @AfterEach
  void stopSummarizer() {
    release.countDown();
    server.stop(0);
  }

  private ApplicationContextRunner application() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
            ZeoCoreHttpClientsAutoConfiguration.class, RestClientAutoConfiguration.class))
        .withUserConfiguration(SummaryTargets.class, Application.class)
        .withPropertyValues("summarizer.url=http://127.0.0.1:" + server.getAddress().getPort(),
            "zeocore.execution.policies.summarize.total-timeout=10s",
            "zeocore.execution.policies.summarize.attempt-timeout=3s",
            "zeocore.execution.policies.summarize.attempt-targets=summarizer,first-sentence");
  }

  @Test
  void summarizerAnswers() {
    application().run(context ->
        assertThat(context.getBean(Summaries.class).summarize("One. Two.")).contains("a summary"));
  }

  @Test
  void firstSentenceAnswersWhenTheSummarizerIsUnavailable() {
    status.set(503);
    application().run(context ->
        assertThat(context.getBean(Summaries.class).summarize("One. Two.")).contains("One."));
  }

  @Test
  void aStalledSummarizerEndsTimeoutAtItsAttemptTimeoutWithoutAnEnforcedDeadline() {
    stall.set(true);
    application().withPropertyValues("zeocore.execution.policies.summarize.attempt-timeout=300ms").run(context -> {
      ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
          .run("summarize", "One. Two.", String.class);

      assertThat(result.value()).isEqualTo("One.");
      assertThat(result.attempts()).extracting(AttemptRecord::failureKind)
          .containsExactly(io.zeocore.execution.FailureKind.TIMEOUT, null);
      assertThat(result.attempts().get(0).duration()).isLessThan(java.time.Duration.ofSeconds(15));
    });
  }

  @Test
  void annotatedInventoryFallsBackToItsMonoCache() {
    application()
        .withBean(Inventory.class, () -> new Inventory(RestClient.create("http://127.0.0.1:" + server.getAddress()
            .getPort()), sku -> Mono.just(new Stock(sku, 7))))
        .withPropertyValues("zeocore.execution.policies.availability.attempt-targets=inventory,inventory-cache",
            "zeocore.execution.policies.availability.total-timeout=10s",
            "zeocore.execution.policies.availability.attempt-timeout=3s")
        .run(context -> {
          ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
          ZeoCoreReactiveExecutions reactive = context.getBean(ZeoCoreReactiveExecutions.class);

          // README: "Annotated targets", the two calls
          ResilientExecutionResult<Stock> stock = executions.run("availability", "sku-1", Stock.class);
          Mono<ResilientExecutionResult<Stock>> later = reactive.runMono("availability", "sku-1", Stock.class);

          assertThat(stock.value()).isEqualTo(new Stock("sku-1", 7)); // the warehouse answers 503: the cache
          assertThat(stock.attempts()).extracting(AttemptRecord::failureKind)
              .containsExactly(io.zeocore.execution.FailureKind.TRANSIENT, null);
          assertThat(later.block(java.time.Duration.ofSeconds(30)).value()).isEqualTo(new Stock("sku-1", 7));
        });
  }

  @Test
  void quotaAwareClassifierMapsItsExceptionAndKeepsTheDefaults() {
    assertThat(quotaAware().classify(new QuotaExceededException()).kind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(quotaAware().classify(new java.net.ConnectException()).dispatchStarted()).isFalse();
  }
}
