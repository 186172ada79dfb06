package io.zeocore.springai;

import java.net.URI;
import org.springframework.ai.ollama.OllamaChatModel;
import org.springframework.ai.ollama.api.OllamaApi;
import org.springframework.ai.ollama.api.OllamaChatOptions;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.retry.RetryUtils;

/** Spring AI's real models, built against a loopback server as the tests need them. */
final class SpringAiModels {

  private SpringAiModels() {}

  /** An Ollama model as Spring AI builds it by default (RetryUtils' default template, 10 retries). */
  static OllamaChatModel ollama(URI baseUrl, String model) {
    return OllamaChatModel.builder()
        .ollamaApi(OllamaApi.builder().baseUrl(baseUrl.toString())
            .responseErrorHandler(new AttemptRecordingResponseErrorHandler(RetryUtils.DEFAULT_RESPONSE_ERROR_HANDLER))
            .build())
        .options(OllamaChatOptions.builder().model(model).build())
        .build();
  }

  /** An OpenAI model with ZeoCore's one-call interceptor and {@code maxRetries} SDK retries (its default is 3). */
  static OpenAiChatModel openAi(URI baseUrl, String model, int maxRetries) {
    return OpenAiChatModel.builder()
        .options(OpenAiChatOptions.builder().baseUrl(baseUrl + "/v1").apiKey("test-key").model(model)
            .maxRetries(maxRetries).build())
        .httpClientBuilderCustomizer(new OneCallOpenAiHttpClientCustomizer())
        .build();
  }
}
