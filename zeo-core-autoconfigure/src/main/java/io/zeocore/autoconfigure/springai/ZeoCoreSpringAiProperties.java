package io.zeocore.autoconfigure.springai;

import io.zeocore.execution.ExecutionMode;
import java.util.LinkedHashMap;
import java.util.Map;
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

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Map<String, ChatTarget> getChatTargets() {
    return this.chatTargets;
  }

  /** One chat-model target. */
  public static class ChatTarget {

    /** Name of the ChatModel bean this target calls, e.g. "ollamaChatModel". */
    private String model;

    /** Label of the target's values: "live" for a real model, "simulated" for a scripted one. */
    private ExecutionMode executionMode = ExecutionMode.LIVE;

    public String getModel() {
      return this.model;
    }

    public void setModel(String model) {
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
