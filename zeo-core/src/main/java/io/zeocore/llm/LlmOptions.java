package io.zeocore.llm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Generation options of one chat call. Immutable (the stop list is copied), so one instance can be shared by every
 * attempt and every thread; a client never changes it, it resolves the model per call instead.
 *
 * <p>{@code null} means "not set": the field is left out of the request and the provider's own default applies. The
 * defaults ({@link #defaults()}) follow the reference: temperature 0.7, nothing else set, no streaming.
 *
 * @param model the model for this call, or {@code null} for the client's model
 * @param temperature sampling temperature in [0, 2], or {@code null} to send none (o-series OpenAI models accept only
 *     their default)
 * @param maxTokens the completion token limit, at least 1, or {@code null} for the provider's default; sent as
 *     {@code num_predict} to Ollama, {@code max_tokens} to OpenAI-compatible servers and {@code max_completion_tokens}
 *     to o-series models
 * @param topP nucleus sampling in [0, 1], or {@code null}
 * @param stop stop sequences (unmodifiable, never {@code null}; empty means none)
 * @param seed sampling seed, or {@code null}
 * @param stream whether to stream; {@code true} is refused by {@link LlmClient#chatOnce} and by
 *     {@link LlmTargets#chatTarget} (a partially streamed answer cannot be retried safely): streams go through
 *     {@link LlmClient#chatStream} and {@link LlmTargets#chatStreamTarget}, which ignore this flag
 */
public record LlmOptions(
    @Nullable String model,
    @Nullable Double temperature,
    @Nullable Integer maxTokens,
    @Nullable Double topP,
    List<String> stop,
    @Nullable Long seed,
    boolean stream) {

  /** The reference's default temperature. */
  public static final double DEFAULT_TEMPERATURE = 0.7;

  private static final LlmOptions DEFAULTS = builder().build();

  public LlmOptions {
    if (model != null && model.isBlank()) {
      throw new IllegalArgumentException("model must not be blank");
    }
    if (temperature != null && !(temperature >= 0 && temperature <= 2)) {
      throw new IllegalArgumentException("temperature must be between 0 and 2");
    }
    if (maxTokens != null && maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be at least 1");
    }
    if (topP != null && !(topP >= 0 && topP <= 1)) {
      throw new IllegalArgumentException("topP must be between 0 and 1");
    }
    if (stop == null) {
      stop = List.of();
    }
    for (String sequence : stop) {
      if (sequence == null || sequence.isEmpty()) {
        throw new IllegalArgumentException("stop sequences must be non-empty strings");
      }
    }
    stop = List.copyOf(stop);
  }

  /** Temperature 0.7, everything else unset, no streaming. */
  public static LlmOptions defaults() {
    return DEFAULTS;
  }

  /** A builder starting from {@link #defaults()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder()
        .model(model)
        .temperature(temperature)
        .maxTokens(maxTokens)
        .topP(topP)
        .stop(stop)
        .seed(seed)
        .stream(stream);
  }

  /** These options with another model ({@code null} for the client's). */
  public LlmOptions withModel(String model) {
    return new LlmOptions(model, temperature, maxTokens, topP, stop, seed, stream);
  }

  /** Builds {@link LlmOptions}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {

    private @Nullable String model;
    private @Nullable Double temperature = DEFAULT_TEMPERATURE;
    private @Nullable Integer maxTokens;
    private @Nullable Double topP;
    private @Nullable List<String> stop = List.of();
    private @Nullable Long seed;
    private boolean stream;

    private Builder() {}

    public Builder model(@Nullable String model) {
      this.model = model;
      return this;
    }

    public Builder temperature(@Nullable Double temperature) {
      this.temperature = temperature;
      return this;
    }

    public Builder maxTokens(@Nullable Integer maxTokens) {
      this.maxTokens = maxTokens;
      return this;
    }

    public Builder topP(@Nullable Double topP) {
      this.topP = topP;
      return this;
    }

    public Builder stop(String... stop) {
      return stop(Arrays.asList(stop));
    }

    public Builder stop(Collection<String> stop) {
      this.stop = stop == null ? null : new ArrayList<>(stop);
      return this;
    }

    public Builder seed(@Nullable Long seed) {
      this.seed = seed;
      return this;
    }

    public Builder stream(boolean stream) {
      this.stream = stream;
      return this;
    }

    /**
     * Validates and builds the options.
     *
     * @throws IllegalArgumentException naming the field that broke its rule
     */
    public LlmOptions build() {
      return new LlmOptions(model, temperature, maxTokens, topP, stop != null ? stop : List.of(), seed, stream);
    }
  }
}
