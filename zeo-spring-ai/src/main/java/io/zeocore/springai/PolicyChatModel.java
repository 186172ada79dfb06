package io.zeocore.springai;

import io.zeocore.execution.ExecutionFailedException;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.StreamExecution;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;

/**
 * A Spring AI {@link ChatModel} that is a ZeoCore plan: every {@link #call(Prompt)} runs the policy over its chat
 * models — one provider request per attempt (Spring AI's own retries made one call, as {@link SpringAiTargets}
 * describes), each attempt bounded by {@code min(attempt-timeout, what is left)}, the whole call by the policy's total
 * timeout, fallback and backoff as the plan says — so that {@code ChatClient}, its advisors (memory, retrieval, the
 * tool-calling loop) and per-call options work unchanged over several providers.
 *
 * <p><b>Options.</b> {@link #getOptions()} are portable {@link ToolCallingChatOptions} without a model, so a
 * {@code ChatClient} attaches its tools and its tool-calling advisor runs the tool loop. Each attempt starts from its
 * own model's options (its model name, its provider settings) and takes from the caller's options only the portable
 * ones: temperature, max tokens, top-p, top-k, stop sequences, frequency and presence penalties, tool callbacks and
 * tool context. A model name the caller sets is ignored: each target keeps its own.
 *
 * <p><b>Tools run once.</b> Spring AI 2 models do not execute tools: a response asking for a tool ends this call
 * successfully, the {@code ChatClient}'s tool-calling advisor executes the tool, and the next model request is a new
 * call — a new run of the plan. A retry or fallback therefore never re-executes a tool that already ran.
 *
 * <p><b>Evidence and failure.</b> An answer carries {@link PlanEvidence} in its metadata (which target answered, the
 * attempts). A run that does not succeed throws {@link ExecutionFailedException} carrying the run's result (outcome,
 * machine code, attempt records), never provider text. Inside a {@link Conversation} (which a
 * {@link ConversationBoundAdvisor} opens around a {@code ChatClient} call), each call is first checked against the
 * conversation's bounds, and the run's total timeout and token budget are cut to what is left of the conversation.
 *
 * <p><b>Streams.</b> {@link #stream(Prompt)} runs the same plan over the models' own {@code stream} ({@link
 * io.zeocore.execution.ResilientRunner#runStream}): until the first response reaches the subscriber, a failure, a
 * refused connection or the policy's first-chunk timeout moves the plan on as for calls; after it nothing is retried
 * or replayed, and a failure, the idle timeout or the total timeout ends the {@code Flux} with an
 * {@link ExecutionFailedException} whose machine code is {@code ZEO_EXEC_STREAM_INTERRUPTED}. Disposing the
 * subscription cancels the run and closes the model's HTTP exchange. A {@link ConversationBoundAdvisor} bounds calls
 * only: a stream is not counted against a conversation. Thread-safe.
 */
public final class PolicyChatModel implements ChatModel {

  private static final ChatOptions PORTABLE_OPTIONS = ToolCallingChatOptions.builder().build();

  private final ResilientRunner runner;
  private final ExecutionPolicy policy;
  private final Map<String, ChatModel> models;
  private final Map<String, Integer> declaredCalls;

  private PolicyChatModel(Builder builder) {
    this.runner = builder.runner;
    this.policy = Objects.requireNonNull(builder.policy, "policy");
    this.models = Map.copyOf(builder.models);
    this.declaredCalls = Map.copyOf(builder.declaredCalls);
    for (String targetId : policy.attemptTargets()) {
      if (!models.containsKey(targetId)) {
        throw new IllegalArgumentException("policy '" + policy.name() + "' plans '" + targetId
            + "', which is no chat model of this PolicyChatModel (" + String.join(", ", models.keySet()) + ")");
      }
    }
  }

  /** A builder: the policy, then the chat model of each target id it plans. */
  public static Builder builder() {
    return new Builder();
  }

  /** The policy every call runs. */
  public ExecutionPolicy policy() {
    return policy;
  }

  /** The chat model of each target id. */
  public Map<String, ChatModel> models() {
    return models;
  }

  @Override
  public ChatOptions getOptions() {
    return PORTABLE_OPTIONS;
  }

  /**
   * Runs the policy with {@code prompt} on each planned chat model.
   *
   * @throws ExecutionFailedException when the run does not succeed, or when a {@link ConversationBoundAdvisor}'s
   *     conversation has no model request or time left (then no provider is called)
   */
  @Override
  public ChatResponse call(Prompt prompt) {
    Objects.requireNonNull(prompt, "prompt");
    ExecutionPolicy bounded = Conversation.admitted(policy);
    Map<String, SyncExecutionTarget<ChatResponse>> targets = new LinkedHashMap<>();
    models.forEach((targetId, model) -> targets.put(targetId, SpringAiTargets.chatTarget(targetId, model,
        forTarget(prompt, model)).withInternalMaxAttempts(declaredCalls.getOrDefault(targetId, 1))));
    ResilientExecutionResult<ChatResponse> result = runner.runSync(bounded, targets);
    Conversation.spent(result.tokens());
    if (result.outcome() != ExecutionOutcome.SUCCEEDED) {
      throw new ExecutionFailedException(policy.name(), result);
    }
    ChatResponse reply = Objects.requireNonNull(result.value(), "value"); // a chat target never succeeds with null
    return ChatResponse.builder().from(reply)
        .metadata(PlanEvidence.METADATA_KEY, PlanEvidence.of(policy.name(), result))
        .build();
  }

  /**
   * Streams the policy with {@code prompt} over each planned model's own {@code stream}: the responses of the attempt
   * that delivers the first one. Nothing is sent until the returned {@code Flux} is subscribed.
   *
   * @return the answer's responses; it ends with {@link ExecutionFailedException} when the run does not succeed
   *     (before any response: the plan's outcome; after one: {@code FAILED_SAFE}, {@code ZEO_EXEC_STREAM_INTERRUPTED})
   */
  @Override
  public Flux<ChatResponse> stream(Prompt prompt) {
    Objects.requireNonNull(prompt, "prompt");
    return Flux.defer(() -> {
      Map<String, StreamExecutionTarget<ChatResponse>> targets = new LinkedHashMap<>();
      models.forEach((targetId, model) -> targets.put(targetId, SpringAiTargets.chatStreamTarget(targetId, model,
          forTarget(prompt, model)).withInternalMaxAttempts(declaredCalls.getOrDefault(targetId, 1))));
      StreamExecution<ChatResponse> run = runner.runStream(policy, targets);
      return JdkFlowAdapter.flowPublisherToFlux(run);
    });
  }

  /** {@code prompt} with {@code model}'s own options and the portable ones the caller set. */
  static Prompt forTarget(Prompt prompt, ChatModel model) {
    ChatOptions requested = prompt.getOptions();
    ChatOptions.Builder<?> options = model.getOptions().mutate();
    if (requested != null) {
      if (requested.getTemperature() != null) {
        options.temperature(requested.getTemperature());
      }
      if (requested.getMaxTokens() != null) {
        options.maxTokens(requested.getMaxTokens());
      }
      if (requested.getTopP() != null) {
        options.topP(requested.getTopP());
      }
      if (requested.getTopK() != null) {
        options.topK(requested.getTopK());
      }
      if (requested.getStopSequences() != null) {
        options.stopSequences(requested.getStopSequences());
      }
      if (requested.getFrequencyPenalty() != null) {
        options.frequencyPenalty(requested.getFrequencyPenalty());
      }
      if (requested.getPresencePenalty() != null) {
        options.presencePenalty(requested.getPresencePenalty());
      }
      if (requested instanceof ToolCallingChatOptions tools
          && options instanceof ToolCallingChatOptions.Builder<?> toolOptions) {
        if (tools.getToolCallbacks() != null && !tools.getToolCallbacks().isEmpty()) {
          toolOptions.toolCallbacks(tools.getToolCallbacks());
        }
        if (tools.getToolContext() != null && !tools.getToolContext().isEmpty()) {
          toolOptions.toolContext(tools.getToolContext());
        }
      }
    }
    return prompt.mutate().chatOptions(options.build()).build();
  }

  /** Builds a {@link PolicyChatModel}. */
  public static final class Builder {

    private ResilientRunner runner = ResilientRunner.create();
    private @Nullable ExecutionPolicy policy;
    private final Map<String, ChatModel> models = new LinkedHashMap<>();
    private final Map<String, Integer> declaredCalls = new LinkedHashMap<>();

    private Builder() {}

    /** The runner every call runs on (default {@link ResilientRunner#create()}; the starter's publishes events). */
    public Builder runner(ResilientRunner runner) {
      this.runner = Objects.requireNonNull(runner, "runner");
      return this;
    }

    /** The policy every call runs; its plan names target ids of {@link #model}s. */
    public Builder policy(ExecutionPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The chat model the target {@code targetId} calls, declaring as many provider calls per model call as its own
     * configuration says ({@link SpringAiTargets#declaredCalls}): an {@code OpenAiChatModel} with SDK retries on is
     * refused by the runner ({@code ZEO_EXEC_NESTED_RETRIES}).
     */
    public Builder model(String targetId, ChatModel model) {
      return model(targetId, model, SpringAiTargets.declaredCalls(model));
    }

    /**
     * The chat model the target {@code targetId} calls, which the caller vouches makes one provider request per call
     * (an OpenAI model built with {@link OneCallOpenAiHttpClientCustomizer}, as the Spring Boot starter's are).
     */
    public Builder oneCallModel(String targetId, ChatModel model) {
      return model(targetId, model, 1);
    }

    private Builder model(String targetId, ChatModel model, int calls) {
      Objects.requireNonNull(targetId, "targetId");
      if (model instanceof PolicyChatModel) {
        throw new IllegalArgumentException("target '" + targetId + "' is itself a PolicyChatModel: plans do not nest");
      }
      models.put(targetId, Objects.requireNonNull(model, "model"));
      declaredCalls.put(targetId, calls);
      return this;
    }

    /**
     * @throws IllegalArgumentException when the policy plans a target id without a chat model
     * @throws NullPointerException without a policy
     */
    public PolicyChatModel build() {
      return new PolicyChatModel(this);
    }
  }
}
