package io.zeocore.llm;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.execution.SyncExecutionTarget;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * Runner targets that make one LLM chat call per attempt.
 *
 * <p>Each attempt calls {@link LlmClient#chatOnce} exactly once — never the legacy retrying {@link LlmClient#chat} —
 * so the policy's plan is the only retry owner, and the target declares {@code internalMaxAttempts = 1}. The call's
 * timeout is the smaller of the client's {@link LlmClient#timeout()} and the attempt's
 * {@link AttemptContext#timeout()}; the attempt's cancellation token is polled while the call waits. A thread
 * interrupted while waiting throws {@link InterruptedException}, which the runner turns into {@code CANCELLED}.
 *
 * <p>Failures are classified from structure only, never from provider text:
 *
 * <table>
 *   <caption>LLM failure classification</caption>
 *   <tr><th>Call failure</th><th>FailureKind</th><th>dispatchStarted</th></tr>
 *   <tr><td>HTTP 429</td><td>RATE_LIMIT</td><td>true</td></tr>
 *   <tr><td>HTTP 401, 403</td><td>AUTHENTICATION (as the reference; 403 is not AUTHORIZATION)</td><td>true</td></tr>
 *   <tr><td>HTTP 408, 504</td><td>TIMEOUT</td><td>true</td></tr>
 *   <tr><td>other HTTP 5xx</td><td>TRANSIENT</td><td>true</td></tr>
 *   <tr><td>any other non-2xx status</td><td>PERMANENT</td><td>true</td></tr>
 *   <tr><td>connection refused or not established</td><td>TRANSIENT</td><td>false</td></tr>
 *   <tr><td>the call's timeout expired</td><td>TIMEOUT</td><td>true (false for a connect timeout)</td></tr>
 *   <tr><td>connection broken after sending</td><td>TRANSIENT</td><td>true</td></tr>
 *   <tr><td>2xx with a non-JSON body, missing, non-string or empty content, or an oversized body</td>
 *       <td>MALFORMED_RESPONSE</td><td>true</td></tr>
 *   <tr><td>client misconfigured (no API key)</td><td>PERMANENT</td><td>false</td></tr>
 *   <tr><td>cancellation token fired during the call</td><td>CANCELLED</td><td>as sent</td></tr>
 * </table>
 *
 * <p>A {@code Retry-After} header (seconds or HTTP date, or OpenAI's {@code retry-after-ms}) on a failed response
 * becomes {@link AttemptError#retryAfter()}, which the runner uses as the floor of the next delay. The
 * {@link AttemptError} keeps the {@link LlmCallException} as its cause for the host's debugging; neither carries
 * provider text.
 */
public final class LlmTargets {

  private LlmTargets() {}

  /** {@link #chatTarget(String, LlmClient, List, LlmOptions)} with {@link LlmOptions#defaults()}. */
  public static SyncExecutionTarget<String> chatTarget(String targetId, LlmClient client,
      List<ChatMessage> messages) {
    return chatTarget(targetId, client, messages, LlmOptions.defaults());
  }

  /**
   * A {@link io.zeocore.execution.ExecutionMode#LIVE} target returning the reply's content. Use
   * {@link SyncExecutionTarget#withExecutionMode} to label a scripted client {@code SIMULATED}.
   *
   * @param targetId the id the policy plans
   * @param client the client; only its {@link LlmClient#chatOnce} is called
   * @param messages at least one message, copied
   * @param options the options of every attempt; a {@code null} model means the client's model, resolved per attempt
   *     without changing {@code options}
   * @throws IllegalArgumentException when {@code options.stream()} is {@code true} (a partially streamed answer is
   *     not replay-safe), when there are no messages, or when the target id breaks the target-id rule
   */
  public static SyncExecutionTarget<String> chatTarget(String targetId, LlmClient client, List<ChatMessage> messages,
      LlmOptions options) {
    Objects.requireNonNull(client, "client");
    HttpLlmClient.requireMessages(messages);
    List<ChatMessage> fixedMessages = List.copyOf(messages);
    Objects.requireNonNull(options, "options");
    if (options.stream()) {
      throw new IllegalArgumentException(
          "stream=true is refused: retrying after partially streamed output is not replay-safe");
    }
    return SyncExecutionTarget.of(targetId, String.class, context -> call(client, fixedMessages, options, context));
  }

  /**
   * A {@link io.zeocore.execution.ExecutionMode#LIVE} streamed target: each attempt sends one streamed request
   * ({@link LlmClient#chatStream}: ZeoCore's Ollama and OpenAI clients) and publishes the reply's content deltas, for
   * {@link io.zeocore.execution.ResilientRunner#runStream}, which may fall back only until the first delta reached its
   * subscriber. The usage the provider reports at the end of the stream is the attempt's. Failures become
   * {@link AttemptError}s as for {@link #chatTarget}; a stream cut before its end marker is {@code transient}.
   *
   * @param options the options of every attempt ({@link LlmOptions#stream()} is ignored: this target always streams);
   *     a {@code null} model means the client's model
   * @throws IllegalArgumentException when there are no messages or the target id breaks the target-id rule
   */
  public static StreamExecutionTarget<String> chatStreamTarget(String targetId, LlmClient client,
      List<ChatMessage> messages, LlmOptions options) {
    Objects.requireNonNull(client, "client");
    HttpLlmClient.requireMessages(messages);
    List<ChatMessage> fixedMessages = List.copyOf(messages);
    Objects.requireNonNull(options, "options");
    return StreamExecutionTarget.of(targetId, String.class, context -> {
      if (context.cancellation().isCancelled()) {
        throw new AttemptError(FailureKind.CANCELLED, false);
      }
      Flow.Publisher<String> deltas;
      try {
        deltas = client.chatStream(fixedMessages, options, context::reportUsage);
      } catch (LlmCallException failure) {
        throw toAttemptError(failure);
      }
      return subscriber -> deltas.subscribe(new AttemptErrors(subscriber));
    });
  }

  /** Passes a stream's signals on, its {@link LlmCallException} as the {@link AttemptError} the runner classifies. */
  private record AttemptErrors(Flow.Subscriber<? super String> downstream) implements Flow.Subscriber<String> {

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      downstream.onSubscribe(subscription);
    }

    @Override
    public void onNext(String item) {
      downstream.onNext(item);
    }

    @Override
    public void onError(Throwable throwable) {
      downstream.onError(throwable instanceof LlmCallException failure ? toAttemptError(failure) : throwable);
    }

    @Override
    public void onComplete() {
      downstream.onComplete();
    }
  }

  private static String call(LlmClient client, List<ChatMessage> messages, LlmOptions options,
      AttemptContext context) throws InterruptedException {
    if (context.cancellation().isCancelled()) {
      throw new AttemptError(FailureKind.CANCELLED, false);
    }
    String clientModel = client.model();
    LlmOptions attemptOptions = options.model() != null || clientModel == null || clientModel.isBlank()
        ? options
        : options.withModel(clientModel);
    Duration clientTimeout = client.timeout();
    Duration timeout = clientTimeout != null && clientTimeout.compareTo(context.timeout()) < 0
        ? clientTimeout
        : context.timeout();
    String content;
    try {
      content = client.chatOnce(messages, attemptOptions, timeout, context.cancellation());
    } catch (LlmCallException failure) {
      throw toAttemptError(failure);
    }
    if (content == null || content.isEmpty()) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
    return content;
  }

  static AttemptError toAttemptError(LlmCallException failure) {
    return switch (failure.reason()) {
      case HTTP_STATUS -> new AttemptError(FailureKind.ofHttpStatus(failure.status().orElse(0)), true,
          failure.retryAfter().orElse(null), failure);
      case CONNECT_FAILED -> new AttemptError(FailureKind.TRANSIENT, false, null, failure);
      case TIMEOUT -> new AttemptError(FailureKind.TIMEOUT, failure.requestSent(), null, failure);
      case TRANSPORT -> new AttemptError(FailureKind.TRANSIENT, failure.requestSent(), null, failure);
      case MALFORMED_RESPONSE -> new AttemptError(FailureKind.MALFORMED_RESPONSE, true, null, failure);
      case CANCELLED -> new AttemptError(FailureKind.CANCELLED, failure.requestSent(), null, failure);
      case CONFIGURATION -> new AttemptError(FailureKind.PERMANENT, false, null, failure);
    };
  }
}
