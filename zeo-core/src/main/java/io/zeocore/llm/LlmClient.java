package io.zeocore.llm;

import io.zeocore.execution.CancellationToken;
import io.zeocore.execution.ModelUsage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.function.Consumer;

/**
 * A chat-completion client of one provider. Implementations are immutable after construction and safe to share
 * between threads.
 *
 * <p>{@link #chatOnce} is the one-attempt contract used by {@link LlmTargets#chatTarget}: exactly one provider call,
 * bounded by the given timeout, no retry, failures as a typed {@link LlmCallException} without provider text. Retrying
 * belongs to the {@link io.zeocore.execution.ResilientRunner}'s policy, which is then the only owner of the call
 * budget.
 *
 * <p>{@link #chat} is the reference's legacy retrying call, kept for compatibility. It is never used by targets:
 * a retrying client under a retrying runner multiplies the calls the policy authorizes.
 */
public interface LlmClient {

  /** The model used when a call's {@link LlmOptions#model()} is {@code null}. */
  String model();

  /** The configured per-call timeout; targets use the smaller of it and the attempt's timeout. */
  Duration timeout();

  /**
   * Makes exactly one provider call and returns the reply's content.
   *
   * <p>The call (connect, send, response headers and body) is bounded by {@code timeout}: when it expires the exchange
   * is abandoned and {@link LlmCallException.Reason#TIMEOUT} is thrown. {@code cancellation} is polled while waiting
   * (about every 50 ms); when it fires the exchange is abandoned and {@link LlmCallException.Reason#CANCELLED} is
   * thrown. If the calling thread is interrupted while waiting, the exchange is abandoned and
   * {@link InterruptedException} is thrown.
   *
   * @param messages at least one message
   * @param options generation options; {@code stream} must be {@code false}; a {@code null} model means {@link #model()}
   * @param timeout the bound of this call, positive
   * @param cancellation observed while waiting for the response
   * @return the reply's content, never {@code null} or empty (an empty reply is
   *     {@link LlmCallException.Reason#MALFORMED_RESPONSE})
   * @throws LlmCallException when the call failed; it says whether the request may have been sent
   * @throws InterruptedException when the calling thread was interrupted while waiting
   * @throws IllegalArgumentException for invalid arguments (no messages, streaming requested, a non-positive timeout)
   */
  String chatOnce(List<ChatMessage> messages, LlmOptions options, Duration timeout, CancellationToken cancellation)
      throws LlmCallException, InterruptedException;

  /** {@link #chatOnce(List, LlmOptions, Duration, CancellationToken)} without a cancellation token. */
  default String chatOnce(List<ChatMessage> messages, LlmOptions options, Duration timeout)
      throws LlmCallException, InterruptedException {
    return chatOnce(messages, options, timeout, CancellationToken.never());
  }

  /**
   * Legacy retrying chat, kept for compatibility with the reference; <strong>never used by targets</strong>.
   *
   * <p>Calls {@link #chatOnce} with {@link #timeout()} and, after every failure except
   * {@link LlmCallException.Reason#CONFIGURATION} and {@link LlmCallException.Reason#CANCELLED}, sleeps and tries again:
   * with {@link LegacyRetry#defaults()} up to 4 calls separated by 1 s, 2 s and 4 s (each delay doubles, capped at
   * 30 s). Like the reference it retries every provider failure, including 401. Unlike the reference it throws the
   * last {@link LlmCallException} instead of returning provider text in a result. This default uses
   * {@link LegacyRetry#defaults()}; the HTTP clients use the {@link LegacyRetry} they were built with.
   *
   * @param options {@code null} for {@link LlmOptions#defaults()}
   */
  default String chat(List<ChatMessage> messages, LlmOptions options) throws LlmCallException, InterruptedException {
    return LegacyRetryLoop.run(this, messages, options, LegacyRetry.defaults());
  }

  /**
   * One streamed chat request, sent when the returned publisher is subscribed: the reply's content deltas as chunks
   * (ZeoCore's Ollama and OpenAI clients stream). This default streams nothing: a client that cannot stream throws.
   *
   * @param usage told what the provider reports of the request's usage, never its text
   * @throws UnsupportedOperationException when the client does not stream
   * @throws LlmCallException when the request cannot be made as configured (nothing was sent)
   */
  default Flow.Publisher<String> chatStream(List<ChatMessage> messages, LlmOptions options,
      Consumer<ModelUsage> usage) throws LlmCallException {
    throw new UnsupportedOperationException(getClass().getName() + " does not stream");
  }
}
