package io.zeocore.autoconfigure.llm;

import java.net.http.HttpClient;

/**
 * Customizes the JDK {@link HttpClient} of the auto-configured LLM clients (proxy, TLS context, executor, HTTP version)
 * before it is built. Declare one or more as beans; they run in {@link org.springframework.core.Ordered order} on a
 * builder that ZeoCore has already set to never follow redirects and to connect within the smaller of the client's
 * timeout and 10 s.
 *
 * <p>A customizer must not turn redirects on: an OpenAI-compatible client sends its API key as a bearer credential
 * on every request.
 */
@FunctionalInterface
public interface LlmHttpClientCustomizer {

  /**
   * Customizes the builder of one client.
   *
   * @param provider {@code ollama} or {@code openai}
   * @param builder the builder, already carrying ZeoCore's defaults
   */
  void customize(String provider, HttpClient.Builder builder);
}
