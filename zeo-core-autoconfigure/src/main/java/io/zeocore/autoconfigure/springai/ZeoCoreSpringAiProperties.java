package io.zeocore.autoconfigure.springai;

import io.zeocore.execution.ExecutionMode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of ZeoCore's Spring AI integration: which of the application's {@code ChatModel} beans
 * policies can plan, under which target ids.
 */
@ConfigurationProperties("zeocore.spring-ai")
public class ZeoCoreSpringAiProperties {

  /**
   * Whether to expose the application's Spring AI chat models as ZeoCore targets and make Spring AI's own retries one
   * call inside ZeoCore attempts.
   */
  private boolean enabled = true;

  /**
   * Chat-model targets by target id (the id that policies' attempt-targets name). When none is configured, every
   * ChatModel bean becomes a target named after its bean name without the "ChatModel" suffix, lower-cased
   * ("ollamaChatModel" becomes "ollama", "openAiChatModel" becomes "openai").
   */
  private final Map<String, ChatTarget> chatTargets = new LinkedHashMap<>();

  /**
   * Policy-backed ChatModel beans by bean name: each is a ChatModel whose every call runs its policy's plan over the
   * chat-model targets the plan names, so ChatClient, its advisors and tools get bounded fallback unchanged.
   */
  private final Map<String, PolicyModel> models = new LinkedHashMap<>();

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Map<String, ChatTarget> getChatTargets() {
    return this.chatTargets;
  }

  public Map<String, PolicyModel> getModels() {
    return this.models;
  }

  /** One policy-backed ChatModel bean. */
  public static class PolicyModel {

    /** The execution policy every call runs; its attempt-targets must be chat-model targets. */
    private @Nullable String policy;

    /**
     * Whether the bean is the primary ChatModel, which Spring AI's auto-configured ChatClient.Builder then uses (and
     * which resolves the ambiguity of an application with several model starters).
     */
    private boolean primary;

    public @Nullable String getPolicy() {
      return this.policy;
    }

    public void setPolicy(@Nullable String policy) {
      this.policy = policy;
    }

    public boolean isPrimary() {
      return this.primary;
    }

    public void setPrimary(boolean primary) {
      this.primary = primary;
    }
  }

  /** One chat-model target. */
  public static class ChatTarget {

    /** Name of the ChatModel bean this target calls, e.g. "ollamaChatModel". */
    private @Nullable String model;

    /** Label of the target's values: "live" for a real model, "simulated" for a scripted one. */
    private ExecutionMode executionMode = ExecutionMode.LIVE;

    public @Nullable String getModel() {
      return this.model;
    }

    public void setModel(@Nullable String model) {
      this.model = model;
    }

    public ExecutionMode getExecutionMode() {
      return this.executionMode;
    }

    public void setExecutionMode(ExecutionMode executionMode) {
      this.executionMode = executionMode;
    }
  }
}
