package io.zeocore.springai;

import com.openai.core.http.Headers;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIServiceException;
import io.zeocore.execution.FailureClassification;
import java.time.Duration;
import java.time.InstantSource;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/** Everything that touches {@code spring-ai-openai} and the OpenAI SDK; loaded only when they are present. */
final class OpenAiSupport {

  private OpenAiSupport() {}

  static boolean isOpenAi(ChatModel model) {
    return model instanceof OpenAiChatModel;
  }

  /** The SDK's configured retries of an {@code OpenAiChatModel}, as its options tell them. */
  static int configuredMaxRetries(ChatModel model) {
    return model instanceof OpenAiChatModel openAi ? Math.max(0, openAi.getOptions().getMaxRetries()) : 0;
  }

  /**
   * {@code prompt} with OpenAI options whose request timeout is at most {@code timeout} (the SDK applies it to the
   * whole call: connect, write, read); {@code null} when the prompt's options are not OpenAI's.
   */
  static @Nullable Prompt withTimeout(Prompt prompt, ChatModel model, Duration timeout) {
    ChatOptions options = prompt.getOptions() != null ? prompt.getOptions() : model.getOptions();
    if (!(options instanceof OpenAiChatOptions openAi)) {
      return null;
    }
    Duration configured = openAi.getTimeout();
    Duration effective = configured != null && configured.compareTo(timeout) < 0 ? configured : timeout;
    OpenAiChatOptions bounded = openAi.mutate().timeout(effective).build();
    return prompt.mutate().chatOptions(bounded).build();
  }

  /** An SDK failure by its status and headers, or a malformed response; {@code null} for anything else. */
  static @Nullable FailureClassification classify(Throwable link, InstantSource clock) {
    if (link instanceof OpenAIServiceException service) {
      int status = service.statusCode();
      Headers headers = service.headers();
      return SpringAiFailures.byStatus(status, first(headers, "Retry-After"), first(headers, "retry-after-ms"), clock);
    }
    if (link instanceof OpenAIInvalidDataException) {
      return FailureClassification.of(io.zeocore.execution.FailureKind.MALFORMED_RESPONSE);
    }
    return null;
  }

  static boolean isSdkIoFailure(Throwable link) {
    return link instanceof com.openai.errors.OpenAIIoException;
  }

  static int status(Throwable link) {
    return link instanceof OpenAIServiceException service ? service.statusCode() : 0;
  }

  private static @Nullable String first(Headers headers, String name) {
    if (headers == null) {
      return null;
    }
    var values = headers.values(name);
    return values.isEmpty() ? null : values.get(0);
  }
}
