package io.zeocore.llm;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Ollama's chat API: {@code POST {baseUrl}/api/chat} with {@code "stream": false}, reply in {@code message.content}.
 *
 * <p>Request: {@code model} (the call's, else this client's), {@code messages} as {@code {role, content}} (roles
 * {@code system}, {@code user}, {@code assistant}, {@code tool}), {@code stream: false} and {@code options} with
 * {@code temperature}, {@code num_predict} (from max tokens), {@code top_p}, {@code seed} and {@code stop} for the
 * options that are set.
 *
 * <p>Immutable and thread-safe; one instance shares one JDK {@link HttpClient}. See {@link LlmClient#chatOnce} for the
 * timing and failure contract.
 */
public final class OllamaClient extends HttpLlmClient {

  /** {@code http://localhost:11434}. */
  public static final URI DEFAULT_BASE_URL = URI.create("http://localhost:11434");
  /** The reference's default model, {@code llama3}. */
  public static final String DEFAULT_MODEL = "llama3";
  /** The reference's default per-call timeout, 60 s. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private OllamaClient(Builder builder) {
    super("ollama", "/api/chat", builder);
  }

  /**
   * A client with the given settings (the {@code zeocore.llm.ollama.*} properties) and defaults for the rest.
   *
   * @param baseUrl e.g. {@code http://localhost:11434}; http or https, no user info, query or fragment
   * @param model the default model, e.g. {@code qwen3:latest}
   * @param timeout the per-call timeout, positive
   */
  public OllamaClient(URI baseUrl, String model, Duration timeout) {
    this(builder().baseUrl(baseUrl).model(model).timeout(timeout));
  }

  /** A builder with {@link #DEFAULT_BASE_URL}, {@link #DEFAULT_MODEL} and {@link #DEFAULT_TIMEOUT}. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  ObjectNode requestBody(List<ChatMessage> messages, LlmOptions options, String model) {
    ObjectNode body = chatBody(messages, model);
    body.put("stream", false);
    ObjectNode wireOptions = body.putObject("options");
    if (options.temperature() != null) {
      wireOptions.put("temperature", options.temperature());
    }
    if (options.maxTokens() != null) {
      wireOptions.put("num_predict", options.maxTokens());
    }
    if (options.topP() != null) {
      wireOptions.put("top_p", options.topP());
    }
    if (options.seed() != null) {
      wireOptions.put("seed", options.seed());
    }
    if (!options.stop().isEmpty()) {
      ArrayNode stop = wireOptions.putArray("stop");
      options.stop().forEach(stop::add);
    }
    return body;
  }

  @Override
  void addHeaders(HttpRequest.Builder request) {
    // Ollama takes no credentials
  }

  @Override
  @Nullable String content(JsonNode root) {
    return stringOrNull(root.path("message").path("content"));
  }

  @Override
  void streaming(ObjectNode body) {
    body.put("stream", true);
  }

  /** One NDJSON object: {@code message.content}, {@code done}, and on the last one the token counts. */
  @Override
  StreamedChat.Line streamLine(String line) throws LlmCallException {
    JsonNode root = streamObject(line);
    if (root.has("error")) {
      // the provider failed mid-stream; its words stay out of the exception
      throw failure(LlmCallException.Reason.TRANSPORT, true, "the provider reported an error in the stream", null);
    }
    JsonNode content = root.path("message").path("content");
    if (!content.isMissingNode() && !content.isNull() && !content.isString()) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "message.content is not a string", null);
    }
    boolean done = root.path("done").asBoolean(false);
    return new StreamedChat.Line(stringOrNull(content), done,
        done ? countOrNull(root.get("prompt_eval_count")) : null, done ? countOrNull(root.get("eval_count")) : null,
        done ? stringOrNull(root.get("model")) : null);
  }

  @Override
  public String toString() {
    return "OllamaClient[baseUrl=" + baseUrl() + ", model=" + model() + ", timeout=" + timeout() + "]";
  }

  /** Builds an {@link OllamaClient}; Ollama takes no credentials, so the shared settings are all. Not thread-safe. */
  public static final class Builder extends LlmClientBuilder<Builder, OllamaClient> {

    private Builder() {
      super(DEFAULT_BASE_URL, DEFAULT_MODEL, DEFAULT_TIMEOUT);
    }

    @Override
    public OllamaClient build() {
      return new OllamaClient(this);
    }
  }
}
