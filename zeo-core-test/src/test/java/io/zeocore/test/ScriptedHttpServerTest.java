package io.zeocore.test;

import static io.zeocore.test.ZeoCoreAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.llm.ChatMessage;
import io.zeocore.llm.LlmTargets;
import io.zeocore.llm.OllamaClient;
import io.zeocore.test.ScriptedHttpServer.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scripted HTTP server: replies in order, the last repeating, delays, recorded requests, and a real LLM client. */
class ScriptedHttpServerTest {

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> post(ScriptedHttpServer server, String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(server.baseUrl().resolve(path))
        .header("X-Test", "yes").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void repliesInOrderRepeatsTheLastAndRecordsEveryRequest() throws Exception {
    try (ScriptedHttpServer server = ScriptedHttpServer.start()) {
      assertThat(post(server, "/none", "").statusCode()).as("no reply scripted").isEqualTo(500);
      server.reset().reply(Reply.status(429).header("Retry-After", "2"))
          .reply(Reply.json(200, "{\"ok\":true}").after(Duration.ofMillis(100)));

      HttpResponse<String> limited = post(server, "/v1/chat", "first");
      long start = System.nanoTime();
      HttpResponse<String> answered = post(server, "/v1/chat", "second");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      HttpResponse<String> repeated = post(server, "/v1/chat", "third");

      assertThat(limited.statusCode()).isEqualTo(429);
      assertThat(limited.headers().firstValue("Retry-After")).contains("2");
      assertThat(answered.statusCode()).isEqualTo(200);
      assertThat(answered.body()).isEqualTo("{\"ok\":true}");
      assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(100));
      assertThat(repeated.body()).isEqualTo("{\"ok\":true}");
      assertThat(server.requests()).extracting(ScriptedHttpServer.Request::body)
          .containsExactly("first", "second", "third");
      assertThat(server.requests().get(0).path()).isEqualTo("/v1/chat");
      assertThat(server.requests().get(0).method()).isEqualTo("POST");
      assertThat(server.requests().get(0).header("x-test")).isEqualTo("yes");
    }
  }

  @Test
  void scriptsWhatZeoCoresOwnLlmClientSeesAtTheHttpLevel() {
    try (ScriptedHttpServer ollama = ScriptedHttpServer.start()) {
      ollama.replies(Reply.json(429, "{\"error\":\"busy\"}").header("Retry-After", "1"),
          Reply.json(200, "{\"model\":\"m\",\"done\":true,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}"));
      OllamaClient client = OllamaClient.builder().baseUrl(URI.create(ollama.baseUrl().toString()))
          .timeout(Duration.ofSeconds(10)).build();
      VirtualTime time = new VirtualTime();
      ResilientRunner runner = ResilientRunner.builder().timeSource(time).build();
      ExecutionPolicy policy = ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(30))
          .attemptTimeout(Duration.ofSeconds(10)).attemptTargets("ollama", "ollama").build();

      ResilientExecutionResult<String> result = runner.runSync(policy,
          Map.of("ollama", LlmTargets.chatTarget("ollama", client, List.of(ChatMessage.user("hello")))));

      assertThat(result).answeredBy("ollama").hasValue("hi").tookPath("ollama:rate_limit", "ollama:succeeded");
      assertThat(result).attempt(1).failedWith(FailureKind.RATE_LIMIT).thenWaited(Duration.ofSeconds(1));
      assertThat(ollama.requests()).hasSize(2);
    }
  }
}
