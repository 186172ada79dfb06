package io.zeocore.llm;

import static io.zeocore.llm.LlmCallFailures.chatOnceFailure;
import static io.zeocore.llm.LoopbackServer.ollamaReply;
import static io.zeocore.llm.LoopbackServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class OllamaClientTest {

  private static final List<ChatMessage> MESSAGES =
      List.of(ChatMessage.system("Be brief."), ChatMessage.user("Summarize."), ChatMessage.tool("{\"rows\":3}"));
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  @RegisterExtension
  final LoopbackServer server = LoopbackServer.forEachTest();

  private OllamaClient client() {
    return new OllamaClient(server.baseUrl(), "qwen3:latest", Duration.ofSeconds(5));
  }

  @Test
  void postsOneNonStreamingChatRequestAndReturnsMessageContent() throws Exception {
    server.replies(ollamaReply("A short summary."));
    LlmOptions options = LlmOptions.builder().maxTokens(64).topP(0.9).seed(42L).stop("###").build();

    String content = client().chatOnce(MESSAGES, options, CALL_TIMEOUT);

    assertThat(content).isEqualTo("A short summary.");
    LoopbackServer.Request request = server.onlyRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/api/chat");
    assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/json");
    JsonNode body = request.json();
    assertThat(body.path("model").stringValue()).isEqualTo("qwen3:latest");
    assertThat(body.path("stream").booleanValue()).isFalse();
    assertThat(body.path("stream").isBoolean()).isTrue();
    assertThat(body.path("messages")).hasSize(3);
    assertThat(body.path("messages").path(0).path("role").stringValue()).isEqualTo("system");
    assertThat(body.path("messages").path(1).path("content").stringValue()).isEqualTo("Summarize.");
    assertThat(body.path("messages").path(2).path("role").stringValue()).isEqualTo("tool");
    JsonNode wireOptions = body.path("options");
    assertThat(wireOptions.path("temperature").doubleValue()).isEqualTo(0.7);
    assertThat(wireOptions.path("num_predict").intValue()).isEqualTo(64);
    assertThat(wireOptions.path("top_p").doubleValue()).isEqualTo(0.9);
    assertThat(wireOptions.path("seed").longValue()).isEqualTo(42L);
    assertThat(wireOptions.path("stop").path(0).stringValue()).isEqualTo("###");
  }

  @Test
  void leavesUnsetOptionsOutOfTheRequest() throws Exception {
    server.replies(ollamaReply("ok"));
    LlmOptions options = LlmOptions.builder().temperature(null).build();

    client().chatOnce(MESSAGES, options, CALL_TIMEOUT);

    JsonNode wireOptions = server.onlyRequest().json().path("options");
    assertThat(wireOptions.isObject()).isTrue();
    assertThat(wireOptions.propertyNames()).isEmpty();
  }

  @Test
  void callModelOverridesTheClientModel() throws Exception {
    server.replies(ollamaReply("ok"));

    client().chatOnce(MESSAGES, LlmOptions.builder().model("llama3.2:1b").build(), CALL_TIMEOUT);

    assertThat(server.onlyRequest().json().path("model").stringValue()).isEqualTo("llama3.2:1b");
  }

  @Test
  void aCallTimeoutBeyondTheJdksTimerRangeStillCompletes() throws Exception {
    server.replies(ollamaReply("ok"));
    Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
    OllamaClient client = new OllamaClient(server.baseUrl(), "m", forever);

    assertThat(client.chatOnce(MESSAGES, LlmOptions.defaults(), forever)).isEqualTo("ok");
  }

  @Test
  void builderDefaultsFollowTheReference() {
    OllamaClient client = OllamaClient.builder().build();

    assertThat(client.baseUrl()).isEqualTo(URI.create("http://localhost:11434"));
    assertThat(client.model()).isEqualTo("llama3");
    assertThat(client.timeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(client.legacyRetry()).isEqualTo(LegacyRetry.defaults());
  }

  @Test
  void baseUrlWithTrailingSlashOrPathPrefixStillReachesApiChat() throws Exception {
    server.replies(ollamaReply("ok"));
    URI withPrefix = URI.create(server.baseUrl() + "/proxy/ollama/");

    new OllamaClient(withPrefix, "m", CALL_TIMEOUT).chatOnce(MESSAGES, LlmOptions.defaults(), CALL_TIMEOUT);

    assertThat(server.onlyRequest().path()).isEqualTo("/proxy/ollama/api/chat");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "not json at all",
      "[\"an\", \"array\"]",
      "{\"done\": true}",
      "{\"message\": {\"role\": \"assistant\"}}",
      "{\"message\": {\"content\": null}}",
      "{\"message\": {\"content\": 42}}",
      "{\"message\": {\"content\": \"\"}}",
      "{\"message\": \"flat\"}",
      ""})
  void a200WithoutUsableContentIsMalformed(String body) {
    server.replies(status(200, body));

    LlmCallException failure = chatOnceFailure(client(), MESSAGES, CALL_TIMEOUT);

    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.MALFORMED_RESPONSE);
    assertThat(failure.requestSent()).isTrue();
    assertThat(failure.status()).isEmpty();
    assertThat(failure.getCause()).isNull();
  }

  @Test
  void aBodyOverTheSizeCapIsMalformed() {
    server.replies(ollamaReply("x".repeat(4096)));
    OllamaClient client = OllamaClient.builder().baseUrl(server.baseUrl()).maxResponseBytes(1024).build();

    LlmCallException failure = chatOnceFailure(client, MESSAGES, CALL_TIMEOUT);

    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.MALFORMED_RESPONSE);
    assertThat(failure.getMessage()).contains("1024 bytes");
  }

  @Test
  void chatOnceMakesExactlyOneRequestEvenWhenLegacyRetryCountIsThree() {
    server.replies(status(503, "{\"error\":\"overloaded\"}"));
    OllamaClient client = OllamaClients.withLegacyRetryOfThreeThatMustNotRun(server.baseUrl(),
        "chatOnce must never sleep");

    LlmCallException failure = chatOnceFailure(client, MESSAGES, CALL_TIMEOUT);

    assertThat(failure.status()).hasValue(503);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void legacyChatRetriesThreeTimesWithDoublingDelaysThenThrowsTheLastFailure() {
    server.replies(status(503, ""), status(502, ""), status(500, ""), status(429, ""));
    List<Duration> slept = new ArrayList<>();
    OllamaClient client = OllamaClient.builder()
        .baseUrl(server.baseUrl())
        .legacyRetry(LegacyRetry.defaults().withSleeper(slept::add))
        .build();

    LlmCallException failure = catchThrowableOfType(LlmCallException.class,
        () -> client.chat(MESSAGES, null));

    assertThat(server.requests()).hasSize(4);
    assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    assertThat(failure.status()).hasValue(429);
  }

  @Test
  void legacyChatCapsTheDelayAndReturnsTheFirstSuccess() throws Exception {
    server.replies(status(500, ""), status(500, ""), status(500, ""), ollamaReply("finally"));
    List<Duration> slept = new ArrayList<>();
    OllamaClient client = OllamaClient.builder()
        .baseUrl(server.baseUrl())
        .legacyRetry(new LegacyRetry(5, Duration.ofSeconds(10), Duration.ofSeconds(30), slept::add))
        .build();

    assertThat(client.chat(MESSAGES, LlmOptions.defaults())).isEqualTo("finally");
    assertThat(slept).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
    assertThat(server.requests()).hasSize(4);
  }

  @Test
  void refusesStreamingAndEmptyMessagesBeforeSending() {
    OllamaClient client = client();
    LlmOptions streaming = LlmOptions.builder().stream(true).build();

    assertThatThrownBy(() -> client.chatOnce(MESSAGES, streaming, CALL_TIMEOUT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stream");
    assertThatThrownBy(() -> client.chatOnce(List.of(), LlmOptions.defaults(), CALL_TIMEOUT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one message");
    assertThatThrownBy(() -> client.chatOnce(MESSAGES, LlmOptions.defaults(), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void rejectsBaseUrlsThatCouldCarryCredentialsOrBreakTheEndpoint() {
    assertThatThrownBy(() -> new OllamaClient(URI.create("http://user:pw@127.0.0.1:11434"), "m", CALL_TIMEOUT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user info")
        .hasMessageNotContaining("pw");
    assertThatThrownBy(() -> new OllamaClient(URI.create("http://127.0.0.1:11434/?x=1"), "m", CALL_TIMEOUT))
        .hasMessageContaining("query");
    assertThatThrownBy(() -> new OllamaClient(URI.create("ftp://127.0.0.1/"), "m", CALL_TIMEOUT))
        .hasMessageContaining("http or https");
    assertThatThrownBy(() -> new OllamaClient(server.baseUrl(), " ", CALL_TIMEOUT))
        .hasMessageContaining("model");
    assertThatThrownBy(() -> new OllamaClient(server.baseUrl(), "m", Duration.ofSeconds(-1)))
        .hasMessageContaining("timeout");
  }

  @Test
  void errorResponsesCarryStatusAndRetryAfterButNeverTheBody() {
    String canary = "CANARY-ollama-body-5b1e";
    server.replies(status(429, "{\"error\":\"" + canary + "\"}", Map.of("Retry-After", "7")));

    LlmCallException failure = chatOnceFailure(client(), MESSAGES, CALL_TIMEOUT);

    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.HTTP_STATUS);
    assertThat(failure.status()).hasValue(429);
    assertThat(failure.retryAfter()).hasValue(Duration.ofSeconds(7));
    assertThat(failure.requestSent()).isTrue();
    assertThat(failure.provider()).isEqualTo("ollama");
    assertThat(failure).hasMessage("ollama chat call failed: http_status 429");
  }

  @Test
  void toStringShowsSettingsButNoMessageContent() {
    assertThat(client().toString()).contains("qwen3:latest").contains(server.baseUrl().toString());
    assertThat(ChatMessage.user("CANARY-message-body").toString())
        .isEqualTo("ChatMessage[role=user, content=<19 chars>]");
  }
}
