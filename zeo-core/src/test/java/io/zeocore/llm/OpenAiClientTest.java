package io.zeocore.llm;

import static io.zeocore.llm.LlmCallFailures.chatOnceFailure;
import static io.zeocore.llm.LoopbackServer.openAiReply;
import static io.zeocore.llm.LoopbackServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class OpenAiClientTest {

  private static final String API_KEY = "sk-CANARY-key-9d2c41";
  private static final List<ChatMessage> MESSAGES = List.of(ChatMessage.user("Summarize."));
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  @RegisterExtension
  final LoopbackServer server = LoopbackServer.forEachTest();

  private OpenAiClient client(String model) {
    return new OpenAiClient(URI.create(server.baseUrl() + "/v1"), API_KEY, model, CALL_TIMEOUT, "org-acme");
  }

  @Test
  void postsChatCompletionWithBearerKeyAndReturnsFirstChoiceContent() throws Exception {
    server.replies(openAiReply("A short summary."));
    LlmOptions options = LlmOptions.builder().maxTokens(128).topP(0.5).seed(7L).stop("END", "###").build();

    String content = client("gpt-4o-mini").chatOnce(MESSAGES, options, CALL_TIMEOUT);

    assertThat(content).isEqualTo("A short summary.");
    LoopbackServer.Request request = server.onlyRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/chat/completions");
    assertThat(request.headers().getFirst("Authorization")).isEqualTo("Bearer " + API_KEY);
    assertThat(request.headers().getFirst("OpenAI-Organization")).isEqualTo("org-acme");
    JsonNode body = request.json();
    assertThat(body.path("model").stringValue()).isEqualTo("gpt-4o-mini");
    assertThat(body.path("messages").path(0).path("role").stringValue()).isEqualTo("user");
    assertThat(body.path("messages").path(0).path("content").stringValue()).isEqualTo("Summarize.");
    assertThat(body.path("temperature").doubleValue()).isEqualTo(0.7);
    assertThat(body.path("top_p").doubleValue()).isEqualTo(0.5);
    assertThat(body.path("max_tokens").intValue()).isEqualTo(128);
    assertThat(body.has("max_completion_tokens")).isFalse();
    assertThat(body.path("seed").longValue()).isEqualTo(7L);
    assertThat(body.path("stop")).hasSize(2);
    assertThat(body.has("stream")).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
      "o1, max_completion_tokens",
      "o3-mini, max_completion_tokens",
      "O4-MINI, max_completion_tokens",
      "gpt-4o, max_tokens",
      "openchat-3.5, max_tokens"})
  void oSeriesModelsGetMaxCompletionTokens(String model, String field) throws Exception {
    server.replies(openAiReply("ok"));

    client("gpt-4o").chatOnce(MESSAGES, LlmOptions.builder().model(model).maxTokens(50).build(), CALL_TIMEOUT);

    JsonNode body = server.onlyRequest().json();
    assertThat(body.path(field).intValue()).isEqualTo(50);
    assertThat(body.has(field.equals("max_tokens") ? "max_completion_tokens" : "max_tokens")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   "})
  void withoutAnApiKeyEveryCallFailsBeforeDispatch(String key) {
    server.replies(openAiReply("unreachable"));
    OpenAiClient client = OpenAiClient.builder()
        .baseUrl(server.baseUrl())
        .apiKey(key.isEmpty() ? null : key)
        .build();

    LlmCallException failure = chatOnceFailure(client, MESSAGES, CALL_TIMEOUT);

    assertThat(client.hasApiKey()).isFalse();
    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.CONFIGURATION);
    assertThat(failure.requestSent()).isFalse();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void legacyChatDoesNotRetryAMissingKey() {
    OpenAiClient client = OpenAiClient.builder()
        .baseUrl(server.baseUrl())
        .legacyRetry(LegacyRetry.defaults().withSleeper(delay -> {
          throw new AssertionError("a configuration error must not be retried");
        }))
        .build();

    LlmCallException failure = catchThrowableOfType(LlmCallException.class, () -> client.chat(MESSAGES, null));

    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.CONFIGURATION);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void theApiKeyIsNeitherPrintedNorHeldAsAString() throws Exception {
    char[] source = API_KEY.toCharArray();
    OpenAiClient client = OpenAiClient.builder().baseUrl(server.baseUrl()).apiKey(source).build();
    Arrays.fill(source, 'x');
    server.replies(openAiReply("ok"));

    client.chatOnce(MESSAGES, LlmOptions.defaults(), CALL_TIMEOUT);

    assertThat(server.onlyRequest().headers().getFirst("Authorization")).isEqualTo("Bearer " + API_KEY);
    assertThat(client.toString()).doesNotContain(API_KEY).contains("apiKey=<redacted>");
    assertThat(OpenAiClient.builder().apiKey(API_KEY).toString()).doesNotContain(API_KEY);
    for (Class<?> type = client.getClass(); type != null; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        if (!Modifier.isStatic(field.getModifiers())) {
          field.setAccessible(true);
          // what a reflective toString would print for this field
          assertThat(String.valueOf(field.get(client))).as(field.getName()).doesNotContain(API_KEY);
        }
      }
    }
    assertThat(System.getenv().values()).noneMatch(value -> value.contains(API_KEY));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"choices\": []}",
      "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": null, \"refusal\": \"no\"}}]}",
      "{\"choices\": [{\"message\": {\"content\": \"\"}}]}",
      "{\"object\": \"chat.completion\"}",
      "<html>gateway</html>"})
  void a200WithoutFirstChoiceContentIsMalformed(String body) {
    server.replies(status(200, body));

    LlmCallException failure = chatOnceFailure(client("gpt-4o"), MESSAGES, CALL_TIMEOUT);

    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.MALFORMED_RESPONSE);
  }

  @Test
  void retryAfterAsAnHttpDateBecomesTheDelayUntilThatDate() {
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120));
    server.replies(status(503, "{}", Map.of("Retry-After", date)));

    LlmCallException failure = chatOnceFailure(client("gpt-4o"), MESSAGES, CALL_TIMEOUT);

    assertThat(failure.retryAfter()).hasValueSatisfying(delay ->
        assertThat(delay).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(120)));
  }

  @Test
  void retryAfterAsAnHttpDateIsMeasuredOnTheConfiguredClock() {
    Instant now = Instant.parse("2015-10-21T07:26:00Z");
    server.replies(status(503, "{}", Map.of("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")));
    OpenAiClient client = OpenAiClient.builder().baseUrl(URI.create(server.baseUrl() + "/v1")).apiKey(API_KEY)
        .clock(InstantSource.fixed(now)).build();

    assertThat(retryAfterOf(client)).hasValue(Duration.ofMinutes(2));
  }

  @Test
  void aClientBuiltFromTheDefaultHttpClientBuilderNeverFollowsRedirects() {
    server.replies(status(307, "{}", Map.of("Location", server.baseUrl() + "/elsewhere")));
    OpenAiClient client = OpenAiClient.builder().baseUrl(URI.create(server.baseUrl() + "/v1")).apiKey(API_KEY)
        .httpClient(LlmClientBuilder.defaultHttpClientBuilder(CALL_TIMEOUT).build()).build();

    LlmCallException failure = chatOnceFailure(client, MESSAGES, CALL_TIMEOUT);

    assertThat(failure.reason()).isEqualTo(LlmCallException.Reason.HTTP_STATUS);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void retryAfterMillisecondsTakePrecedenceAndGarbageIsIgnored() {
    server.replies(
        status(429, "{}", Map.of("retry-after-ms", "1500", "Retry-After", "2")),
        status(429, "{}", Map.of("Retry-After", "soon")),
        status(429, "{}", Map.of("Retry-After", "-3")),
        status(429, "{}", Map.of("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")));
    OpenAiClient client = client("gpt-4o");

    assertThat(retryAfterOf(client)).hasValue(Duration.ofMillis(1500));
    assertThat(retryAfterOf(client)).isEmpty();
    assertThat(retryAfterOf(client)).isEmpty();
    assertThat(retryAfterOf(client)).hasValue(Duration.ZERO);
  }

  private static Optional<Duration> retryAfterOf(OpenAiClient client) {
    return chatOnceFailure(client, MESSAGES, CALL_TIMEOUT).retryAfter();
  }
}
