package io.zeocore.llm;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAI's chat completions API and servers compatible with it: {@code POST {baseUrl}/chat/completions} with
 * {@code Authorization: Bearer <api key>} (and {@code OpenAI-Organization} when set), reply in
 * {@code choices[0].message.content}.
 *
 * <p>Request: {@code model} (the call's, else this client's), {@code messages} as {@code {role, content}} and, for
 * the options that are set, {@code temperature}, {@code top_p}, {@code stop}, {@code seed} and the token limit — as
 * {@code max_completion_tokens} for o-series models (a name starting with {@code o} and a digit, such as {@code o1} or
 * {@code o3-mini}, ignoring case) and as {@code max_tokens} otherwise.
 *
 * <p>The API key is copied into a private character array when the client is built. It is sent only in the
 * {@code Authorization} header; it is never logged, never written to the process environment, never part of
 * {@link #toString()} or of an exception, and there is no accessor for it. The environment is not read either: pass
 * the key explicitly (in Spring, {@code zeocore.llm.openai.api-key: ${OPENAI_API_KEY}}). A client without a key can
 * be built, but every call fails before anything is sent with {@link LlmCallException.Reason#CONFIGURATION}.
 *
 * <p>Immutable and thread-safe; one instance shares one JDK {@link HttpClient}. See {@link LlmClient#chatOnce} for the
 * timing and failure contract.
 */
public final class OpenAiClient extends HttpLlmClient {

  /** {@code https://api.openai.com/v1}. */
  public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");
  /** The reference's default model, {@code gpt-4o}. */
  public static final String DEFAULT_MODEL = "gpt-4o";
  /** The reference's default per-call timeout, 60 s. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private static final Pattern O_SERIES = Pattern.compile("(?i)o[0-9].*");

  private final @Nullable ApiKey apiKey;
  private final @Nullable String organization;

  private OpenAiClient(Builder builder) {
    super("openai", "/chat/completions", builder);
    this.apiKey = builder.apiKey;
    if (builder.organization != null && builder.organization.isBlank()) {
      this.organization = null;
    } else {
      this.organization = builder.organization;
    }
  }

  /**
   * A client with the given settings (the {@code zeocore.llm.openai.*} properties) and defaults for the rest.
   *
   * @param baseUrl e.g. {@code https://api.openai.com/v1}; http or https, no user info, query or fragment
   * @param apiKey the bearer key, or {@code null}/blank for none (calls then fail before dispatch)
   * @param model the default model, e.g. {@code gpt-4o}
   * @param timeout the per-call timeout, positive
   * @param organization the {@code OpenAI-Organization} header, or {@code null}/blank for none
   */
  public OpenAiClient(URI baseUrl, @Nullable String apiKey, String model, Duration timeout, String organization) {
    this(builder().baseUrl(baseUrl).apiKey(apiKey).model(model).timeout(timeout).organization(organization));
  }

  /** A builder with {@link #DEFAULT_BASE_URL}, {@link #DEFAULT_MODEL}, {@link #DEFAULT_TIMEOUT} and no key. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether an API key was configured; without one every call fails before dispatch. */
  public boolean hasApiKey() {
    return apiKey != null;
  }

  /** The {@code OpenAI-Organization} header value, or {@code null}. */
  public @Nullable String organization() {
    return organization;
  }

  @Override
  ObjectNode requestBody(List<ChatMessage> messages, LlmOptions options, String model) {
    ObjectNode body = chatBody(messages, model);
    if (options.temperature() != null) {
      body.put("temperature", options.temperature());
    }
    if (options.topP() != null) {
      body.put("top_p", options.topP());
    }
    if (options.maxTokens() != null) {
      body.put(O_SERIES.matcher(model).matches() ? "max_completion_tokens" : "max_tokens", options.maxTokens());
    }
    if (!options.stop().isEmpty()) {
      ArrayNode stop = body.putArray("stop");
      options.stop().forEach(stop::add);
    }
    if (options.seed() != null) {
      body.put("seed", options.seed());
    }
    return body;
  }

  @Override
  void addHeaders(HttpRequest.Builder request) throws LlmCallException {
    if (apiKey == null) {
      throw failure(LlmCallException.Reason.CONFIGURATION, false, "no API key configured", null);
    }
    request.header("Authorization", apiKey.bearer());
    if (organization != null) {
      request.header("OpenAI-Organization", organization);
    }
  }

  @Override
  @Nullable String content(JsonNode root) {
    return stringOrNull(root.path("choices").path(0).path("message").path("content"));
  }

  @Override
  void streaming(ObjectNode body) {
    body.put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
  }

  /**
   * One server-sent event line: {@code data: [DONE]} ends the stream; {@code data: {...}} carries
   * {@code choices[0].delta.content} and, on the usage chunk, the token counts; comments, {@code event:}, {@code id:}
   * and {@code retry:} lines say nothing.
   */
  @Override
  StreamedChat.Line streamLine(String line) throws LlmCallException {
    if (!line.startsWith("data:")) {
      return StreamedChat.Line.NOTHING;
    }
    String data = line.substring(5).strip();
    if (data.equals("[DONE]")) {
      return new StreamedChat.Line(null, true, null, null, null);
    }
    JsonNode root = streamObject(data);
    if (root.has("error")) {
      throw failure(LlmCallException.Reason.TRANSPORT, true, "the provider reported an error in the stream", null);
    }
    JsonNode content = root.path("choices").path(0).path("delta").path("content");
    if (!content.isMissingNode() && !content.isNull() && !content.isString()) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "delta.content is not a string", null);
    }
    JsonNode usage = root.get("usage");
    boolean reported = usage != null && usage.isObject();
    return new StreamedChat.Line(stringOrNull(content), false,
        reported ? countOrNull(usage.get("prompt_tokens")) : null,
        reported ? countOrNull(usage.get("completion_tokens")) : null,
        reported ? stringOrNull(root.get("model")) : null);
  }

  @Override
  public String toString() {
    return "OpenAiClient[baseUrl=" + baseUrl() + ", model=" + model() + ", timeout=" + timeout()
        + ", apiKey=" + (apiKey == null ? "<none>" : apiKey) + ", organization=" + organization + "]";
  }

  /**
   * Builds an {@link OpenAiClient}: the shared settings plus the API key and organization. The HTTP client must never
   * follow redirects (the key is a bearer credential). Not thread-safe.
   */
  public static final class Builder extends LlmClientBuilder<Builder, OpenAiClient> {

    private @Nullable ApiKey apiKey;
    private @Nullable String organization;

    private Builder() {
      super(DEFAULT_BASE_URL, DEFAULT_MODEL, DEFAULT_TIMEOUT);
    }

    /** {@code zeocore.llm.openai.api-key}; {@code null} or blank for none. */
    public Builder apiKey(@Nullable String apiKey) {
      this.apiKey = ApiKey.of(apiKey);
      return this;
    }

    /** The key as characters (copied; the caller may then clear its array); {@code null} or blank for none. */
    public Builder apiKey(char @Nullable [] apiKey) {
      this.apiKey = ApiKey.of(apiKey);
      return this;
    }

    /** {@code zeocore.llm.openai.organization}; {@code null} or blank for none. */
    public Builder organization(@Nullable String organization) {
      this.organization = organization;
      return this;
    }

    @Override
    public OpenAiClient build() {
      return new OpenAiClient(this);
    }

    @Override
    public String toString() {
      return "OpenAiClient.Builder[apiKey=" + (apiKey == null ? "<none>" : apiKey) + "]";
    }
  }
}
