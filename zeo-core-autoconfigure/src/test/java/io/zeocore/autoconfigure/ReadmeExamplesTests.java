package io.zeocore.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.ExceptionClassifier;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
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
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestClient;

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
    RestClient.Builder restClientBuilder() {
      return RestClient.builder();
    }

    @Bean
    Summaries summaries(ZeoCoreExecutions executions) {
      return new Summaries(executions);
    }
  }

  private HttpServer server;
  private final AtomicInteger status = new AtomicInteger(200);

  @BeforeEach
  void startSummarizer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/summaries", exchange -> {
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
    server.stop(0);
  }

  private ApplicationContextRunner application() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class))
        .withUserConfiguration(SummaryTargets.class, Application.class)
        .withPropertyValues("summarizer.url=http://127.0.0.1:" + server.getAddress().getPort(),
            "zeocore.execution.policies.summarize.total-timeout=10s",
            "zeocore.execution.policies.summarize.attempt-timeout=3s",
            "zeocore.execution.policies.summarize.attempt-targets=summarizer,first-sentence",
            "zeocore.execution.policies.summarize.deadline=enforced");
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
  void quotaAwareClassifierMapsItsExceptionAndKeepsTheDefaults() {
    assertThat(quotaAware().classify(new QuotaExceededException()).kind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(quotaAware().classify(new java.net.ConnectException()).dispatchStarted()).isFalse();
  }
}
