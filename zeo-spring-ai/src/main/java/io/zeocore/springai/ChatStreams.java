package io.zeocore.springai;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import java.time.Clock;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;

/**
 * One streamed Spring AI model request per attempt: the model's own {@code stream(prompt)} as the attempt's publisher.
 * Subscribing sends the request; cancelling the subscription cancels the model's {@code Flux}, which closes its HTTP
 * exchange. Failures are classified as {@link SpringAiFailures} does for calls (from the exception alone: a stream's
 * failure arrives on another thread than its request left from) and carry a text-free cause; the token usage the
 * provider reported in the stream's latest response that carried one is reported to the attempt when the stream
 * completes or fails.
 */
final class ChatStreams {

  private static final Clock CLOCK = Clock.systemUTC();

  private ChatStreams() {}

  static Flow.Publisher<ChatResponse> stream(ChatModel model, Prompt prompt, AttemptContext context) {
    if (context.cancellation().isCancelled()) {
      throw new AttemptError(FailureKind.CANCELLED, false);
    }
    AtomicReference<ChatResponse> lastWithUsage = new AtomicReference<>();
    Flux<ChatResponse> answer = Flux.defer(() -> model.stream(prompt))
        .doOnNext(response -> {
          Usage usage = response.getMetadata().getUsage();
          if (usage != null && !(usage instanceof EmptyUsage)) {
            lastWithUsage.set(response);
          }
        })
        .doOnComplete(() -> reportUsage(model, prompt, context, lastWithUsage.get()))
        // a stream cut after the provider reported usage keeps it: the error reaches the runner after this hook
        .doOnError(failure -> reportUsage(model, prompt, context, lastWithUsage.get()))
        .onErrorMap(failure -> !(failure instanceof AttemptError) && !(failure instanceof Error),
            failure -> SpringAiFailures.toAttemptError(failure, null, false, CLOCK));
    return JdkFlowAdapter.publisherToFlowPublisher(answer);
  }

  private static void reportUsage(ChatModel model, Prompt prompt, AttemptContext context,
      @Nullable ChatResponse reported) {
    if (reported != null) {
      context.reportUsage(SpringAiTargets.usage(model, prompt, reported));
    }
  }
}
