package io.zeocore.autoconfigure.llm;

import io.zeocore.llm.OllamaClient;
import io.zeocore.llm.OpenAiClient;
import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of ZeoCore's one-attempt LLM clients. A client bean exists only when at least one of its
 * properties is set (for example {@code zeocore.llm.ollama.model}); with none set, nothing is created.
 */
@ConfigurationProperties("zeocore.llm")
public class ZeoCoreLlmProperties {

  /** Whether to enable ZeoCore's LLM client beans. */
  private boolean enabled = true;

  private final Ollama ollama = new Ollama();

  private final OpenAi openai = new OpenAi();

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Ollama getOllama() {
    return this.ollama;
  }

  public OpenAi getOpenai() {
    return this.openai;
  }

  /**
   * The settings that every provider's client takes the same way: the bound of one call and the largest response read.
   * Each provider starts from its own client's default timeout.
   */
  public abstract static class ClientSettings {

    /** Bound of one call; each attempt uses the smaller of this and the attempt's timeout. */
    private Duration timeout;

    /** Largest successful response body read; a larger one is a malformed response. */
    private DataSize maxResponseSize = DataSize.ofMegabytes(16);

    ClientSettings(Duration defaultTimeout) {
      this.timeout = defaultTimeout;
    }

    public Duration getTimeout() {
      return this.timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public DataSize getMaxResponseSize() {
      return this.maxResponseSize;
    }

    public void setMaxResponseSize(DataSize maxResponseSize) {
      this.maxResponseSize = maxResponseSize;
    }
  }

  /** Settings of the {@link OllamaClient} bean. */
  public static class Ollama extends ClientSettings {

    /** Base URL of the Ollama server (http or https, without user info, query or fragment). */
    private URI baseUrl = OllamaClient.DEFAULT_BASE_URL;

    /** Model used when a call names none, e.g. "qwen3:latest". */
    private String model = OllamaClient.DEFAULT_MODEL;

    /** Settings with the {@link OllamaClient}'s defaults. */
    public Ollama() {
      super(OllamaClient.DEFAULT_TIMEOUT);
    }

    public URI getBaseUrl() {
      return this.baseUrl;
    }

    public void setBaseUrl(URI baseUrl) {
      this.baseUrl = baseUrl;
    }

    public String getModel() {
      return this.model;
    }

    public void setModel(String model) {
      this.model = model;
    }
  }

  /** Settings of the {@link OpenAiClient} bean (OpenAI or a server compatible with its chat completions API). */
  public static class OpenAi extends ClientSettings {

    /** Base URL of the API, to which "/chat/completions" is appended. */
    private URI baseUrl = OpenAiClient.DEFAULT_BASE_URL;

    /**
     * Bearer API key, e.g. "${OPENAI_API_KEY}". Sent only in the Authorization header, never logged. Without one,
     * every call fails before anything is sent.
     */
    private @Nullable String apiKey;

    /** Model used when a call names none. */
    private String model = OpenAiClient.DEFAULT_MODEL;

    /** Value of the OpenAI-Organization header, if any. */
    private @Nullable String organization;

    /** Settings with the {@link OpenAiClient}'s defaults. */
    public OpenAi() {
      super(OpenAiClient.DEFAULT_TIMEOUT);
    }

    public URI getBaseUrl() {
      return this.baseUrl;
    }

    public void setBaseUrl(URI baseUrl) {
      this.baseUrl = baseUrl;
    }

    public @Nullable String getApiKey() {
      return this.apiKey;
    }

    public void setApiKey(@Nullable String apiKey) {
      this.apiKey = apiKey;
    }

    public String getModel() {
      return this.model;
    }

    public void setModel(String model) {
      this.model = model;
    }

    public @Nullable String getOrganization() {
      return this.organization;
    }

    public void setOrganization(@Nullable String organization) {
      this.organization = organization;
    }
  }
}
