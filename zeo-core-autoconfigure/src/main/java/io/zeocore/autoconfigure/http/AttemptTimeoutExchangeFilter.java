package io.zeocore.autoconfigure.http;

import io.zeocore.execution.CurrentAttempt;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Bounds each {@code WebClient} exchange made inside a ZeoCore attempt by what is left of that attempt:
 * {@code min(attempt-timeout, what is left of the run's total-timeout)}, measured from when the target's call began.
 * The attempt is the one in the subscriber's Reactor context under {@link #CONTEXT_KEY} (ZeoCore's Mono targets put it
 * there), else the one whose target the subscribing thread is calling ({@link CurrentAttempt}: a {@code block()} in a
 * sync target, a subscription inside an async target's {@code invoke}). An exchange with neither passes through
 * untouched.
 *
 * <p>Inside an attempt the response must arrive, and its whole body be read, before the deadline: otherwise the
 * exchange is cancelled (which aborts it on every WebClient connector) and fails with
 * {@link java.net.http.HttpTimeoutException}, which ZeoCore classifies {@code TIMEOUT}. An exchange that would start
 * with nothing left is not sent. The exception's message names no URL, header or body. Stateless and thread-safe.
 */
public final class AttemptTimeoutExchangeFilter implements ExchangeFilterFunction {

  /** The Reactor context key of the {@link CurrentAttempt} an exchange belongs to. */
  public static final Class<CurrentAttempt> CONTEXT_KEY = CurrentAttempt.class;

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    return Mono.deferContextual(context -> {
      CurrentAttempt attempt = attempt(context);
      if (attempt == null) {
        return next.exchange(request);
      }
      long deadline = attempt.deadlineNanos();
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return Mono.error(AttemptDeadlines.expired("before the request was sent"));
      }
      return next.exchange(request)
          .timeout(Duration.ofNanos(left),
              Mono.error(() -> AttemptDeadlines.expired("while waiting for the response")))
          .map(response -> response.mutate().body(body -> bounded(body, deadline)).build());
    });
  }

  private static @Nullable CurrentAttempt attempt(ContextView context) {
    return context.hasKey(CONTEXT_KEY) ? context.get(CONTEXT_KEY) : CurrentAttempt.get().orElse(null);
  }

  /** {@code body}, failing as a timeout when its last buffer has not arrived by {@code deadline}. */
  private static Flux<DataBuffer> bounded(Flux<DataBuffer> body, long deadline) {
    return body.timeout(until(deadline), buffer -> until(deadline),
        Flux.error(() -> AttemptDeadlines.expired("while reading the body")));
  }

  private static Mono<Long> until(long deadline) {
    return Mono.delay(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }
}
