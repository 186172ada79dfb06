package io.zeocore.springai;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ModelUsage;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.execution.SyncExecutionTarget;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.converter.BeanOutputConverter;
import org.springframework.ai.converter.StructuredOutputConverter;

/**
 * Runner targets that make one Spring AI {@link ChatModel} call per attempt, so that the policy's plan is the only
 * retry owner.
 *
 * <p>Each attempt calls {@link ChatModel#call(Prompt)} exactly once ({@link #chatStreamTarget}: {@code stream}, once)
 * inside a ZeoCore attempt scope, in which Spring AI's own retry layers make exactly one provider call — provided they
 * were made scope-aware:
 * {@link SpringAiRetries#oneCallInsideZeoCoreAttempts} for the {@code RetryTemplate} of Ollama and Spring AI's other
 * {@code RestClient}-based models (Spring AI's shared default templates are scoped when this class loads), and
 * {@link OneCallOpenAiHttpClientCustomizer} for the OpenAI SDK. The Spring Boot starter does both for the beans it
 * sees. An {@code OpenAiChatModel} whose SDK retries are on ({@code maxRetries > 0}) is declared with
 * {@code internalMaxAttempts = maxRetries + 1}, so the runner refuses it with {@code ZEO_EXEC_NESTED_RETRIES} unless the
 * caller confirms, with {@link SyncExecutionTarget#withInternalMaxAttempts withInternalMaxAttempts(1)}, that the model
 * was built with the customizer.
 *
 * <p>The attempt's {@link AttemptContext#timeout()} bounds the call: an OpenAI model gets it as its per-request
 * timeout (the smaller of it and the configured one); any other model's call is interrupted when it expires, which
 * aborts the JDK {@code HttpClient} exchange of Spring's {@code RestClient}. The attempt then fails
 * {@link FailureKind#TIMEOUT}.
 *
 * <p>Failures are thrown as {@link AttemptError}s classified as {@link SpringAiFailures} describes, whatever
 * {@code ExceptionClassifier} the runner has; their cause is a {@link SpringAiCallException} naming only the exception
 * class and HTTP status, because Spring AI's exception messages carry the provider's response text. A response with no
 * generation, or a generation with neither text nor tool calls, is {@link FailureKind#MALFORMED_RESPONSE}.
 *
 * <p>Targets are {@link io.zeocore.execution.ExecutionMode#LIVE}; label a scripted model {@code SIMULATED} with
 * {@link SyncExecutionTarget#withExecutionMode} / {@link NamedTarget#withExecutionMode}.
 */
public final class SpringAiTargets {

  static {
    SpringAiRetries.scopeSpringAiDefaultTemplates();
  }

  private static final Clock CLOCK = Clock.systemUTC();

  private SpringAiTargets() {}

  /**
   * A target returning the model's whole {@link ChatResponse} for {@code prompt}.
   *
   * @throws IllegalArgumentException when the target id breaks the target-id rule
   */
  public static SyncExecutionTarget<ChatResponse> chatTarget(String targetId, ChatModel model, Prompt prompt) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(prompt, "prompt");
    return SyncExecutionTarget.of(targetId, ChatResponse.class, context -> call(model, prompt, context))
        .withInternalMaxAttempts(declaredCalls(model));
  }

  /**
   * A streamed target: each attempt subscribes to the model's own {@code stream(prompt)} once (one provider request) and
   * publishes its responses as they arrive; for {@link io.zeocore.execution.ResilientRunner#runStream}, which may fall
   * back only until the first response reached its subscriber. Cancelling the attempt cancels the model's stream and
   * closes its HTTP exchange. Failures are classified as for {@link #chatTarget}; the usage the provider reports in its
   * last responses is the attempt's. No per-request timeout is set on the model: the runner bounds the wait for the
   * first response and the silences between responses ({@code first-chunk-timeout}, {@code chunk-idle-timeout}).
   *
   * @throws IllegalArgumentException when the target id breaks the target-id rule
   */
  public static StreamExecutionTarget<ChatResponse> chatStreamTarget(String targetId, ChatModel model, Prompt prompt) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(prompt, "prompt");
    return StreamExecutionTarget.of(targetId, ChatResponse.class, context -> ChatStreams.stream(model, prompt, context))
        .withInternalMaxAttempts(declaredCalls(model));
  }

  /**
   * A target returning the text of the model's answer to {@code prompt} (a response without text is
   * {@link FailureKind#MALFORMED_RESPONSE}), for plans that mix a Spring AI model with other {@code String} targets.
   */
  public static SyncExecutionTarget<String> textTarget(String targetId, ChatModel model, Prompt prompt) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(prompt, "prompt");
    return SyncExecutionTarget.of(targetId, String.class, context -> text(call(model, prompt, context)))
        .withInternalMaxAttempts(declaredCalls(model));
  }

  /**
   * A target returning the model's answer to {@code prompt} mapped to {@code type} by Spring AI's
   * {@link BeanOutputConverter}: the converter's format instructions are appended to the prompt's last user message,
   * and an answer that does not convert is {@link FailureKind#MALFORMED_RESPONSE}.
   */
  public static <T> SyncExecutionTarget<T> entityTarget(String targetId, ChatModel model, Prompt prompt,
      Class<T> type) {
    return entityTarget(targetId, model, prompt, type, new BeanOutputConverter<>(type));
  }

  /** {@link #entityTarget(String, ChatModel, Prompt, Class)} with any structured output converter. */
  public static <T> SyncExecutionTarget<T> entityTarget(String targetId, ChatModel model, Prompt prompt,
      Class<T> type, StructuredOutputConverter<T> converter) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(converter, "converter");
    Prompt formatted = withFormat(Objects.requireNonNull(prompt, "prompt"), converter.getFormat());
    return SyncExecutionTarget.of(targetId, type, context -> convert(call(model, formatted, context), converter))
        .withInternalMaxAttempts(declaredCalls(model));
  }

  /**
   * A target declared once, called with each run's {@link Prompt}: usable as a bean that policies plan by id (the
   * Spring Boot starter declares one per {@code ChatModel} bean).
   */
  public static NamedTarget<Prompt, ChatResponse> namedChatTarget(String targetId, ChatModel model) {
    Objects.requireNonNull(model, "model");
    return NamedTarget.of(targetId, Prompt.class, ChatResponse.class,
        (prompt, context) -> call(model, Objects.requireNonNull(prompt, "prompt"), context));
  }

  /** A {@link #namedChatTarget} whose answer is mapped to {@code type} by a {@link BeanOutputConverter}. */
  public static <T> NamedTarget<Prompt, T> namedEntityTarget(String targetId, ChatModel model, Class<T> type) {
    Objects.requireNonNull(model, "model");
    BeanOutputConverter<T> converter = new BeanOutputConverter<>(type);
    return NamedTarget.of(targetId, Prompt.class, type, (prompt, context) -> convert(
        call(model, withFormat(Objects.requireNonNull(prompt, "prompt"), converter.getFormat()), context), converter));
  }

  /**
   * How many provider calls one {@code model.call} may make as far as ZeoCore can tell from the model's own
   * configuration: {@code maxRetries + 1} for an {@code OpenAiChatModel}, 1 for any other model (whose
   * {@code RetryTemplate}, if any, must be {@linkplain SpringAiRetries#oneCallInsideZeoCoreAttempts scoped}).
   */
  public static int declaredCalls(ChatModel model) {
    if (SpringAiFailures.OPENAI_PRESENT && OpenAiSupport.isOpenAi(model)) {
      return OpenAiSupport.configuredMaxRetries(model) + 1;
    }
    return 1;
  }

  static ChatResponse call(ChatModel model, Prompt prompt, AttemptContext context) throws InterruptedException {
    if (context.cancellation().isCancelled()) {
      throw new AttemptError(FailureKind.CANCELLED, false);
    }
    Duration timeout = context.timeout();
    Prompt bounded = SpringAiFailures.OPENAI_PRESENT ? OpenAiSupport.withTimeout(prompt, model, timeout) : null;
    long started = System.nanoTime();
    AttemptScope scope = AttemptScope.open();
    AttemptWatchdog watchdog = bounded == null ? AttemptWatchdog.start(timeout) : null;
    ChatResponse response;
    try {
      response = model.call(bounded != null ? bounded : prompt);
    } catch (RuntimeException | Error failure) {
      boolean fired = watchdog != null && watchdog.stop();
      if (fired) {
        throw new AttemptError(FailureKind.TIMEOUT, true, null, new SpringAiCallException(failure, scope.status()));
      }
      if (Thread.currentThread().isInterrupted()) {
        // the host interrupted the run: the runner ends it CANCELLED
        Thread.interrupted();
        throw new InterruptedException("interrupted during a Spring AI call");
      }
      if (failure instanceof AttemptError error) {
        throw error;
      }
      if (failure instanceof Error error && !(failure instanceof LinkageError)) {
        throw error;
      }
      boolean deadlinePassed = System.nanoTime() - started >= timeout.toNanos();
      throw SpringAiFailures.toAttemptError(failure, scope, deadlinePassed, CLOCK);
    } finally {
      scope.close();
    }
    if (watchdog != null) {
      // a late answer that raced the alarm is still an answer; only the interrupt is withdrawn
      watchdog.stop();
    }
    if (response != null) {
      context.reportUsage(usage(model, bounded != null ? bounded : prompt, response));
    }
    requireContent(response);
    return response;
  }

  /**
   * What the provider said this request used: its token counts ({@code null} when it reported no usage), the model
   * asked for and the model that answered; the provider by the model's class for Spring AI's Ollama and OpenAI models.
   */
  static ModelUsage usage(ChatModel model, Prompt prompt, ChatResponse response) {
    Usage usage = response.getMetadata().getUsage();
    boolean reported = usage != null && !(usage instanceof EmptyUsage);
    String responseModel = response.getMetadata().getModel();
    return new ModelUsage(provider(model), prompt.getOptions() != null ? prompt.getOptions().getModel() : null,
        responseModel == null || responseModel.isEmpty() ? null : responseModel,
        reported && usage.getPromptTokens() != null ? Long.valueOf(usage.getPromptTokens()) : null,
        reported && usage.getCompletionTokens() != null ? Long.valueOf(usage.getCompletionTokens()) : null);
  }

  private static @Nullable String provider(ChatModel model) {
    String type = model.getClass().getName();
    if (type.startsWith("org.springframework.ai.ollama.")) {
      return "ollama";
    }
    if (type.startsWith("org.springframework.ai.openai.")) {
      return "openai";
    }
    return null;
  }

  private static void requireContent(ChatResponse response) {
    if (response == null) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
    Generation generation = response.getResult();
    AssistantMessage output = generation != null ? generation.getOutput() : null;
    if (output == null) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
    String text = output.getText();
    if ((text == null || text.isBlank()) && !output.hasToolCalls()) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
  }

  /** The text of the response's first generation; {@link FailureKind#MALFORMED_RESPONSE} when it has none. */
  private static @Nullable String outputText(ChatResponse response) {
    Generation generation = response.getResult();
    if (generation == null) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
    return generation.getOutput().getText();
  }

  private static String text(ChatResponse response) {
    String text = outputText(response);
    if (text == null || text.isBlank()) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
    return text;
  }

  private static <T> T convert(ChatResponse response, StructuredOutputConverter<T> converter) {
    String text = outputText(response);
    T value;
    try {
      value = converter.convert(text == null ? "" : text);
    } catch (RuntimeException unparseable) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE, true, null, new SpringAiCallException(unparseable, 0));
    }
    if (value == null) {
      throw new AttemptError(FailureKind.MALFORMED_RESPONSE);
    }
    return value;
  }

  private static Prompt withFormat(Prompt prompt, String format) {
    if (format == null || format.isEmpty()) {
      return prompt;
    }
    return prompt.augmentUserMessage(user -> user.mutate()
        .text((user.getText() == null ? "" : user.getText()) + System.lineSeparator() + format)
        .build());
  }
}
