package io.zeocore.llm;

import io.zeocore.InvalidFieldException;
import io.zeocore.execution.CancellationToken;
import io.zeocore.execution.ModelUsage;
import io.zeocore.internal.RetryAfterHeader;
import io.zeocore.internal.SaturatingDurations;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.net.ssl.SSLHandshakeException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP mechanics shared by the provider clients: one {@code POST} of a JSON body per call on the JDK
 * {@link HttpClient}, bounded by the call's timeout and cancellation token, status and body classified without ever
 * reading provider text into an exception or a log line.
 */
abstract class HttpLlmClient implements LlmClient {

  /** How often a pending call polls its cancellation token. */
  private static final long CANCELLATION_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Longer call timeouts are enforced by this class's own deadline only. */
  private static final Duration MAX_JDK_REQUEST_TIMEOUT = Duration.ofDays(1);

  /**
   * The mapper of request and response bodies, made on first use: an application that configures no LLM client (but
   * reads a client's defaults, as the starter's properties do) never pays for Jackson's start-up.
   */
  static JsonMapper json() {
    return Json.MAPPER;
  }

  private static final class Json {
    static final JsonMapper MAPPER = JsonMapper.builder().build();
  }

  private final String provider;
  private final URI baseUrl;
  private final URI endpoint;
  private final String model;
  private final Duration timeout;
  private final HttpClient httpClient;
  private final HttpClient.Version version;
  private final LegacyRetry legacyRetry;
  private final long maxResponseBytes;
  private final InstantSource clock;

  HttpLlmClient(String provider, String path, LlmClientBuilder<?, ?> settings) {
    this.provider = provider;
    this.baseUrl = validateBaseUrl(settings.baseUrl);
    this.endpoint = URI.create(stripTrailingSlashes(baseUrl.toString()) + path);
    this.model = requireModel(settings.model);
    this.timeout = requirePositive(settings.timeout, "timeout");
    this.legacyRetry = Objects.requireNonNull(settings.legacyRetry, "legacyRetry");
    if (settings.maxResponseBytes < 1 || settings.maxResponseBytes > Integer.MAX_VALUE - 8) {
      throw new InvalidFieldException("maxResponseBytes", "must be between 1 and " + (Integer.MAX_VALUE - 8));
    }
    this.maxResponseBytes = settings.maxResponseBytes;
    this.httpClient = settings.httpClient != null ? settings.httpClient
        : LlmClientBuilder.defaultHttpClientBuilder(timeout).build();
    // plain http: HTTP/1.1, so that no h2c upgrade is attempted against servers that mishandle it; https negotiates
    this.version = "https".equals(this.baseUrl.getScheme()) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
    this.clock = settings.clock;
  }

  /**
   * The part of a chat request body both providers spell alike: {@code model}, then {@code messages} as an array of
   * {@code {"role": <wire value>, "content": <text>}} in conversation order. The provider adds its options to it.
   */
  static ObjectNode chatBody(List<ChatMessage> messages, String model) {
    ObjectNode body = json().createObjectNode();
    body.put("model", model);
    ArrayNode wireMessages = body.putArray("messages");
    for (ChatMessage message : messages) {
      wireMessages.addObject().put("role", message.role().wireValue()).put("content", message.content());
    }
    return body;
  }

  /** Builds the provider's JSON request body. */
  abstract ObjectNode requestBody(List<ChatMessage> messages, LlmOptions options, String model);

  /** Adds provider headers (credentials); throws {@link LlmCallException.Reason#CONFIGURATION} when it cannot. */
  abstract void addHeaders(HttpRequest.Builder request) throws LlmCallException;

  /** The reply's content from a parsed 2xx body, or {@code null} when the body does not have the provider's shape. */
  abstract @Nullable String content(JsonNode root);

  /** Turns {@link #requestBody} into a streamed request's body ({@code "stream": true} and what else it needs). */
  abstract void streaming(ObjectNode body);

  /** Reads one non-blank line of the provider's stream; {@code MALFORMED_RESPONSE} when it cannot. */
  abstract StreamedChat.Line streamLine(String line) throws LlmCallException;

  /** The line's JSON object; {@code MALFORMED_RESPONSE} (never quoting it) when it is none. */
  final JsonNode streamObject(String json) throws LlmCallException {
    JsonNode root;
    try {
      root = json().readTree(json);
    } catch (JacksonException unparseable) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "stream line is not JSON", null);
    }
    if (root == null || !root.isObject()) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "stream line is not a JSON object", null);
    }
    return root;
  }

  /** The number at {@code node} when it is a non-negative integer, {@code null} otherwise. */
  static @Nullable Long countOrNull(@Nullable JsonNode node) {
    return node != null && node.isIntegralNumber() && node.longValue() >= 0 ? node.longValue() : null;
  }

  @Override
  public final String model() {
    return model;
  }

  @Override
  public final Duration timeout() {
    return timeout;
  }

  /** The configured base URL. */
  public final URI baseUrl() {
    return baseUrl;
  }

  final String provider() {
    return provider;
  }

  @Override
  public final String chatOnce(List<ChatMessage> messages, LlmOptions options, Duration timeout,
      CancellationToken cancellation) throws LlmCallException, InterruptedException {
    requireMessages(messages);
    Objects.requireNonNull(options, "options");
    if (options.stream()) {
      throw new IllegalArgumentException("stream=true is not supported by chatOnce: stream with chatStream");
    }
    requirePositive(timeout, "timeout");
    Objects.requireNonNull(cancellation, "cancellation");

    String callModel = options.model() != null ? options.model() : model;
    byte[] body = json().writeValueAsBytes(requestBody(messages, options, callModel));
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .version(version)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (timeout.compareTo(MAX_JDK_REQUEST_TIMEOUT) <= 0) {
      // a second guard: the JDK abandons the exchange itself at this point (its timer overflows on huge values)
      request.timeout(timeout);
    }
    addHeaders(request);
    if (cancellation.isCancelled()) {
      throw failure(LlmCallException.Reason.CANCELLED, false, "cancelled before sending", null);
    }

    HttpResponse<byte[]> response = exchange(request.build(), timeout, cancellation);
    int status = response.statusCode();
    if (status < 200 || status > 299) {
      // OpenAI's retry-after-ms first, else Retry-After (seconds or an HTTP date on this client's clock)
      throw LlmCallException.httpStatus(provider, status, RetryAfterHeader.parse(
          response.headers().firstValue("retry-after").orElse(null),
          response.headers().firstValue("retry-after-ms").orElse(null), clock));
    }
    return contentOf(response.body());
  }

  /**
   * One streamed chat request, sent when the returned publisher is subscribed (once): each non-empty content delta of
   * the reply as one chunk, in order, then completion at the provider's end marker. The body is read only as the
   * subscriber asks; cancelling the subscription cancels the exchange and closes its connection. No timeout is applied
   * here but the client's connect timeout: a runner bounds the wait for the first chunk and the silences between
   * chunks ({@link io.zeocore.execution.ResilientRunner#runStream}). Errors are {@link LlmCallException}s as for
   * {@link #chatOnce}, plus {@code TRANSPORT} for a stream cut before its end marker. What the provider reports of the
   * request's usage (tokens, the answering model) is passed to {@code usage} as it arrives, never the text.
   *
   * @throws IllegalArgumentException when there are no messages
   */
  @Override
  public final Flow.Publisher<String> chatStream(List<ChatMessage> messages, LlmOptions options,
      Consumer<ModelUsage> usage) throws LlmCallException {
    requireMessages(messages);
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(usage, "usage");
    String callModel = options.model() != null ? options.model() : model;
    ObjectNode wire = requestBody(messages, options, callModel);
    streaming(wire);
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .version(version)
        .header("Content-Type", "application/json")
        .header("Accept", "application/x-ndjson, text/event-stream, application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json().writeValueAsBytes(wire)));
    addHeaders(request);
    return new StreamedChat(this, httpClient, request.build(), this::streamLine, maxResponseBytes, clock,
        line -> usage.accept(new ModelUsage(provider, callModel, line.responseModel(), line.inputTokens(),
            line.outputTokens())));
  }

  @Override
  public final String chat(List<ChatMessage> messages, LlmOptions options)
      throws LlmCallException, InterruptedException {
    return LegacyRetryLoop.run(this, messages, options, legacyRetry);
  }

  /** The legacy {@link #chat} settings this client was built with. */
  public final LegacyRetry legacyRetry() {
    return legacyRetry;
  }

  private HttpResponse<byte[]> exchange(HttpRequest request, Duration timeout, CancellationToken cancellation)
      throws LlmCallException, InterruptedException {
    long deadline = System.nanoTime() + SaturatingDurations.toNanos(timeout);
    boolean polling = cancellation != CancellationToken.never();
    CompletableFuture<HttpResponse<byte[]>> pending;
    try {
      pending = httpClient.sendAsync(request, ResponseBodies.handler(maxResponseBytes));
    } catch (RuntimeException unusable) {
      throw failure(LlmCallException.Reason.CONFIGURATION, false, unusable.getClass().getName(), null);
    }
    try {
      while (true) {
        long remaining = deadline - System.nanoTime();
        long wait = polling ? Math.min(remaining, CANCELLATION_POLL_NANOS) : remaining;
        try {
          return pending.get(Math.max(0, wait), TimeUnit.NANOSECONDS);
        } catch (TimeoutException notYet) {
          if (polling && cancellation.isCancelled()) {
            pending.cancel(true);
            throw failure(LlmCallException.Reason.CANCELLED, true, "cancelled while waiting", null);
          }
          if (deadline - System.nanoTime() <= 0) {
            pending.cancel(true);
            throw failure(LlmCallException.Reason.TIMEOUT, true, "no complete response within " + timeout, null);
          }
        }
      }
    } catch (InterruptedException interrupted) {
      pending.cancel(true);
      throw interrupted;
    } catch (ExecutionException | CancellationException failed) {
      throw classify(failed instanceof ExecutionException ? failed.getCause() : failed);
    }
  }

  final LlmCallException classify(@Nullable Throwable thrown) {
    Throwable cause = thrown;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof ResponseBodies.TooLargeException) {
      return failure(LlmCallException.Reason.MALFORMED_RESPONSE, true,
          "response body exceeds " + maxResponseBytes + " bytes", null);
    }
    if (cause instanceof HttpConnectTimeoutException) {
      return failure(LlmCallException.Reason.TIMEOUT, false, "connect timed out", cause);
    }
    if (cause instanceof HttpTimeoutException) {
      return failure(LlmCallException.Reason.TIMEOUT, true, "request timed out", cause);
    }
    for (Throwable link = cause; link != null; link = link.getCause()) {
      if (link instanceof ConnectException) {
        return failure(LlmCallException.Reason.CONNECT_FAILED, false, "connection not established", link);
      }
      if (link instanceof UnresolvedAddressException || link instanceof UnknownHostException
          || link instanceof NoRouteToHostException || link instanceof SSLHandshakeException) {
        return failure(LlmCallException.Reason.CONNECT_FAILED, false, link.getClass().getName(), null);
      }
      if (link.getCause() == link) {
        break;
      }
    }
    // anything else may carry bytes of the response in its message: keep only the type
    String type = cause != null ? cause.getClass().getName() : "no cause";
    return failure(LlmCallException.Reason.TRANSPORT, true, type, null);
  }

  private String contentOf(byte[] body) throws LlmCallException {
    JsonNode root;
    try {
      root = body == null || body.length == 0 ? null : json().readTree(body);
    } catch (JacksonException unparseable) {
      // Jackson messages quote the input: never keep them
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "body is not JSON", null);
    }
    if (root == null || !root.isObject()) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "body is not a JSON object", null);
    }
    String content = content(root);
    if (content == null) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "no content in response", null);
    }
    if (content.isEmpty()) {
      throw failure(LlmCallException.Reason.MALFORMED_RESPONSE, true, "empty content", null);
    }
    return content;
  }

  /** The text at {@code node} when it is a JSON string, {@code null} otherwise. */
  static @Nullable String stringOrNull(@Nullable JsonNode node) {
    return node != null && node.isString() ? node.stringValue() : null;
  }

  final LlmCallException failure(LlmCallException.Reason reason, boolean sent, String detail,
      @Nullable Throwable cause) {
    return new LlmCallException(provider, reason, 0, null, sent, detail, cause);
  }

  private static URI validateBaseUrl(@Nullable URI baseUrl) {
    if (baseUrl == null) {
      throw new InvalidFieldException("baseUrl", "must be set");
    }
    String scheme = baseUrl.getScheme() == null ? "" : baseUrl.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new InvalidFieldException("baseUrl", "must be an absolute http or https URL");
    }
    if (baseUrl.getHost() == null || baseUrl.getHost().isEmpty()) {
      throw new InvalidFieldException("baseUrl", "must name a host");
    }
    if (baseUrl.getRawUserInfo() != null) {
      throw new InvalidFieldException("baseUrl", "must not contain user info; pass credentials as an API key");
    }
    if (baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null) {
      throw new InvalidFieldException("baseUrl", "must not contain a query or a fragment");
    }
    return baseUrl;
  }

  private static String stripTrailingSlashes(String url) {
    int end = url.length();
    while (end > 0 && url.charAt(end - 1) == '/') {
      end--;
    }
    return url.substring(0, end);
  }

  private static String requireModel(@Nullable String model) {
    if (model == null || model.isBlank()) {
      throw new InvalidFieldException("model", "must not be blank");
    }
    return model;
  }

  static Duration requirePositive(@Nullable Duration value, String name) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new InvalidFieldException(name, "must be a positive duration");
    }
    return value;
  }

  static void requireMessages(List<ChatMessage> messages) {
    if (messages == null || messages.isEmpty()) {
      throw new IllegalArgumentException("messages must contain at least one message");
    }
    for (ChatMessage message : messages) {
      if (message == null) {
        throw new IllegalArgumentException("messages must not contain null");
      }
    }
  }

}
