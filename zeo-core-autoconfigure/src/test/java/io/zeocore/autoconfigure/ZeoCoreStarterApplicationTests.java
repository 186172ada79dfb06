package io.zeocore.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter as an application sees it: policies from YAML, the runner injected into a service that calls a real
 * HTTP server on loopback, events received by an {@code @EventListener}, meters in the registry.
 */
@SpringBootTest(classes = ZeoCoreStarterApplicationTests.QuoteApplication.class,
    properties = "spring.config.name=zeocore-e2e")
@ExtendWith(OutputCaptureExtension.class)
class ZeoCoreStarterApplicationTests {

  private static final String CANARY = "canary-quote-9c41";
  private static final AtomicInteger primaryCalls = new AtomicInteger();
  private static HttpServer server;

  @Autowired
  private QuoteService quotes;

  @Autowired
  private ExecutionEvents events;

  @Autowired
  private MeterRegistry meters;

  @BeforeAll
  static void startProvider() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/primary", exchange -> {
      primaryCalls.incrementAndGet();
      exchange.sendResponseHeaders(503, -1);
      exchange.close();
    });
    server.createContext("/backup", exchange -> {
      byte[] body = CANARY.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
  }

  @AfterAll
  static void stopProvider() {
    server.stop(0);
  }

  @DynamicPropertySource
  static void providerUrl(DynamicPropertyRegistry registry) {
    registry.add("quotes.base-url", () -> "http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Test
  void runsTheYamlPolicyEndToEndFallingBackFromAnUnavailableProvider() {
    ResilientExecutionResult<String> result = quotes.quote();

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo(CANARY);
    assertThat(result.selectedTargetId()).isEqualTo("backup");
    assertThat(primaryCalls).hasValue(1);
    assertThat(result.attempts().get(0).backoffBeforeNext()).isPositive();

    assertThat(events.received).hasSize(3);
    assertThat(events.received.get(0)).isInstanceOfSatisfying(AttemptRecordedEvent.class, event -> {
      assertThat(event.policyName()).isEqualTo("quotes");
      assertThat(event.attempt().targetId()).isEqualTo("primary");
      assertThat(event.attempt().failureKind()).isEqualTo(FailureKind.TRANSIENT);
    });
    assertThat(events.received.get(1)).isInstanceOfSatisfying(AttemptRecordedEvent.class,
        event -> assertThat(event.attempt().targetId()).isEqualTo("backup"));
    assertThat(events.received.get(2)).isInstanceOfSatisfying(ExecutionCompletedEvent.class,
        event -> assertThat(event.selectedTargetId()).isEqualTo("backup"));
    assertThat(events.received).noneSatisfy(event -> assertThat(event.toString()).contains(CANARY));

    assertThat(meters.get("zeocore.execution.attempts").tags("policy", "quotes", "target", "primary",
        "failure.kind", "transient").counter().count()).isEqualTo(1.0);
    assertThat(meters.get("zeocore.execution.duration").tags("policy", "quotes", "outcome", "succeeded").timer()
        .count()).isEqualTo(1);
  }

  @Test
  void unknownFailureKindInYamlStopsStartUpWithTheAnalyzersReport(CapturedOutput output) {
    assertThatException().isThrownBy(() -> start("classpath:bad-policies/unknown-kind.yml"));
    assertThat(output).contains("APPLICATION FAILED TO START", "ZeoCore execution policy 'quotes' is invalid",
        "Property: zeocore.execution.policies.quotes.retryable-failures[1]", "Value: \"flaky\"",
        "Origin: class path resource [bad-policies/unknown-kind.yml] - 8:39", "Rule: 'flaky' is not a failure kind",
        "Update zeocore.execution.policies.quotes.retryable-failures[1]");
  }

  @Test
  void backoffLongerThanThePlanInYamlStopsStartUpWithTheAnalyzersReport(CapturedOutput output) {
    assertThatException().isThrownBy(() -> start("classpath:bad-policies/backoff-longer-than-plan.yml"));
    assertThat(output).contains("APPLICATION FAILED TO START", "ZeoCore execution policy 'quotes' is invalid",
        "Property: zeocore.execution.policies.quotes.backoff", "Value: \"[100ms, 200ms]\"",
        "Origin: class path resource [bad-policies/backoff-longer-than-plan.yml] - 11:13",
        "Rule: backoff cannot exceed the number of attempt transitions");
  }

  @Test
  void bothBackoffFormsInYamlStopStartUpWithTheAnalyzersReport(CapturedOutput output) {
    assertThatException().isThrownBy(() -> start("classpath:bad-policies/both-backoff-forms.yml"));
    assertThat(output).contains("APPLICATION FAILED TO START", "ZeoCore execution policy 'quotes' is invalid",
        "Property: zeocore.execution.policies.quotes.exponential-backoff",
        "Value: \"{initial=200ms, multiplier=2}\"",
        "Origin: class path resource [bad-policies/both-backoff-forms.yml] - 12:41",
        "Rule: backoff and exponential-backoff are both set on zeocore.execution.policies.quotes");
  }

  private static void start(String configLocation) {
    new SpringApplicationBuilder(QuoteApplication.class).web(WebApplicationType.NONE)
        .properties("spring.config.location=" + configLocation, "quotes.base-url=http://127.0.0.1:1")
        .run().close();
  }

  /**
   * An application without a database and without Spring AI: Boot's JDBC and Flyway modules and Spring AI's OpenAI
   * and Ollama starters are on the test classpath (for other tests), unused here.
   */
  @SpringBootConfiguration
  @EnableAutoConfiguration(excludeName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
      "org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration",
      "org.springframework.ai.model.openai.autoconfigure.OpenAiEmbeddingAutoConfiguration",
      "org.springframework.ai.model.openai.autoconfigure.OpenAiImageAutoConfiguration",
      "org.springframework.ai.model.openai.autoconfigure.OpenAiAudioSpeechAutoConfiguration",
      "org.springframework.ai.model.openai.autoconfigure.OpenAiAudioTranscriptionAutoConfiguration",
      "org.springframework.ai.model.openai.autoconfigure.OpenAiModerationAutoConfiguration",
      "org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration",
      "org.springframework.ai.model.ollama.autoconfigure.OllamaEmbeddingAutoConfiguration"})
  @Import({QuoteService.class, ExecutionEvents.class})
  static class QuoteApplication {}

  /** A user's service: the policy comes from YAML, the targets call the provider over HTTP. */
  @Component
  static class QuoteService {

    private final ZeoCoreExecutions executions;
    private final String baseUrl;
    private final HttpClient http = HttpClient.newHttpClient();

    QuoteService(ZeoCoreExecutions executions, @Value("${quotes.base-url}") String baseUrl) {
      this.executions = executions;
      this.baseUrl = baseUrl;
    }

    ResilientExecutionResult<String> quote() {
      return executions.run("quotes", List.of(provider("primary"), provider("backup")));
    }

    private SyncExecutionTarget<String> provider(String id) {
      return SyncExecutionTarget.of(id, String.class, attempt -> {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/" + id)).timeout(attempt.timeout())
            .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 503) {
          throw new AttemptError(FailureKind.TRANSIENT);
        }
        return response.body();
      });
    }
  }

  @Component
  static class ExecutionEvents {

    final List<Object> received = new CopyOnWriteArrayList<>();

    @EventListener
    void attempt(AttemptRecordedEvent event) {
      received.add(event);
    }

    @EventListener
    void completed(ExecutionCompletedEvent event) {
      received.add(event);
    }
  }
}
