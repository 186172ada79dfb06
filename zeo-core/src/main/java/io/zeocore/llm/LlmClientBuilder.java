package io.zeocore.llm;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings every HTTP chat client shares, with the provider's defaults already set: base URL, model, per-call
 * timeout, the JDK {@link HttpClient} to send with, the legacy {@link LlmClient#chat} retry settings, the response size
 * cap and the clock that dates {@code Retry-After}. Provider builders ({@link OllamaClient.Builder},
 * {@link OpenAiClient.Builder}) add their own settings. Not thread-safe.
 *
 * @param <B> the provider's builder
 * @param <C> the client it builds
 */
public abstract class LlmClientBuilder<B extends LlmClientBuilder<B, C>, C extends LlmClient> {

  /** The default cap of a successful response body, 16 MiB. */
  public static final long DEFAULT_MAX_RESPONSE_BYTES = 16L * 1024 * 1024;

  /** The default client's connect timeout cap; a call's own timeout still bounds the whole exchange. */
  private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  @Nullable URI baseUrl;
  @Nullable String model;
  @Nullable Duration timeout;
  @Nullable HttpClient httpClient;
  @Nullable LegacyRetry legacyRetry = LegacyRetry.defaults();
  long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
  InstantSource clock = Clock.systemUTC();

  LlmClientBuilder(URI baseUrl, String model, Duration timeout) {
    this.baseUrl = baseUrl;
    this.model = model;
    this.timeout = timeout;
  }

  /**
   * The JDK client builder ZeoCore uses when none is given: redirects never followed (a bearer credential must not
   * travel to another origin) and a connect timeout of the smaller of {@code callTimeout} and 10 s. Start from it to
   * add a proxy, TLS settings or an executor, then pass the result to {@link #httpClient(HttpClient)}.
   */
  public static HttpClient.Builder defaultHttpClientBuilder(Duration callTimeout) {
    Objects.requireNonNull(callTimeout, "callTimeout");
    return HttpClient.newBuilder()
        .connectTimeout(!callTimeout.isNegative() && !callTimeout.isZero()
            && callTimeout.compareTo(MAX_CONNECT_TIMEOUT) < 0 ? callTimeout : MAX_CONNECT_TIMEOUT)
        .followRedirects(HttpClient.Redirect.NEVER);
  }

  /** The base URL ({@code zeocore.llm.<provider>.base-url}): http or https, no user info, query or fragment. */
  public B baseUrl(URI baseUrl) {
    this.baseUrl = baseUrl;
    return self();
  }

  /** The default model ({@code zeocore.llm.<provider>.model}); a call's {@link LlmOptions#model()} overrides it. */
  public B model(String model) {
    this.model = model;
    return self();
  }

  /** The per-call timeout ({@code zeocore.llm.<provider>.timeout}); a target's attempt timeout may shorten it. */
  public B timeout(Duration timeout) {
    this.timeout = timeout;
    return self();
  }

  /**
   * The JDK client to send with (proxy, TLS, executor). It must not follow redirects. Default: one built from
   * {@link #defaultHttpClientBuilder(Duration)} with this builder's timeout (also when {@code null} is given).
   */
  public B httpClient(@Nullable HttpClient httpClient) {
    this.httpClient = httpClient;
    return self();
  }

  /** Settings of the legacy retrying {@link LlmClient#chat}; default {@link LegacyRetry#defaults()}. */
  public B legacyRetry(LegacyRetry legacyRetry) {
    this.legacyRetry = legacyRetry;
    return self();
  }

  /** The largest successful response body read; a larger one is a malformed response. Default 16 MiB. */
  public B maxResponseBytes(long maxResponseBytes) {
    this.maxResponseBytes = maxResponseBytes;
    return self();
  }

  /** The wall clock that turns an HTTP-date {@code Retry-After} into a delay. Default: the system UTC clock. */
  public B clock(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return self();
  }

  /**
   * Validates and builds the client.
   *
   * @throws IllegalArgumentException naming the setting that is invalid
   */
  public abstract C build();

  /**
   * This builder as its provider's builder type: the constructor is package-private and each subclass is declared
   * {@code extends LlmClientBuilder<itself, its client>}, so the cast always holds.
   */
  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }
}
