package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.http.AttemptTimeoutExchangeFilter;
import io.zeocore.execution.CurrentAttempt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/** Reactor's side of {@link ZeoCoreTarget} methods; loaded only when reactor-core is on the class path. */
final class MonoStages {

  private MonoStages() {}

  static boolean isMono(Class<?> type) {
    return Mono.class.isAssignableFrom(type);
  }

  /**
   * Subscribes to {@code returned} with the current attempt in its Reactor context (under
   * {@link AttemptTimeoutExchangeFilter#CONTEXT_KEY}); cancelling the stage disposes the subscription. An empty
   * {@code Mono} completes with {@code null}, which the runner records as a malformed response.
   */
  @SuppressWarnings("unchecked")
  static CompletionStage<Object> subscribe(@Nullable Object returned) {
    if (returned == null) {
      return CompletableFuture.failedFuture(new NullPointerException("the target returned no Mono"));
    }
    Mono<Object> mono = (Mono<Object>) returned;
    CurrentAttempt attempt = CurrentAttempt.get().orElse(null);
    if (attempt != null) {
      mono = mono.contextWrite(context -> context.put(AttemptTimeoutExchangeFilter.CONTEXT_KEY, attempt));
    }
    return mono.toFuture(); // its cancel() cancels the subscription
  }
}
