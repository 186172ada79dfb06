package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.Serializable;
import org.jspecify.annotations.Nullable;

/**
 * What one attempt's model request used, as the provider reported it, in OpenTelemetry's GenAI terms: who was called
 * with which model, which model answered and how many tokens went in and came out. A field the provider did not report
 * is {@code null} ("absent stays absent"), never a guessed zero. Names and counts only: never prompt or answer text.
 *
 * @param provider the provider ({@code gen_ai.provider.name}, e.g. {@code ollama}, {@code openai}), or {@code null}
 * @param requestModel the model asked for ({@code gen_ai.request.model}), or {@code null}
 * @param responseModel the model that answered ({@code gen_ai.response.model}), or {@code null}
 * @param inputTokens tokens of the request ({@code gen_ai.usage.input_tokens}), or {@code null}
 * @param outputTokens tokens of the answer ({@code gen_ai.usage.output_tokens}), or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelUsage(@Nullable String provider, @Nullable String requestModel, @Nullable String responseModel,
    @Nullable Long inputTokens, @Nullable Long outputTokens) implements Serializable {

  public ModelUsage {
    if (inputTokens != null && inputTokens < 0) {
      throw new IllegalArgumentException("inputTokens must not be negative");
    }
    if (outputTokens != null && outputTokens < 0) {
      throw new IllegalArgumentException("outputTokens must not be negative");
    }
  }

  /** Input and output tokens together; {@code 0} when neither was reported. */
  public long totalTokens() {
    return (inputTokens != null ? inputTokens : 0) + (outputTokens != null ? outputTokens : 0);
  }
}
