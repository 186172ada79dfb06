package io.zeocore.llm;

import java.util.Locale;
import java.util.Objects;

/**
 * One message of a chat request. Immutable.
 *
 * <p>{@link #toString()} shows the role and the content's length, never the content: messages are request bodies and
 * request bodies never reach logs.
 *
 * @param role who speaks
 * @param content the text, never {@code null} (it may be empty)
 */
public record ChatMessage(Role role, String content) {

  /** The speaker of a message, with the providers' lowercase wire values. */
  public enum Role {
    SYSTEM("system"),
    USER("user"),
    ASSISTANT("assistant"),
    TOOL("tool");

    private final String wireValue;

    Role(String wireValue) {
      this.wireValue = wireValue;
    }

    /** The lowercase value sent to providers, e.g. {@code assistant}. */
    public String wireValue() {
      return wireValue;
    }

    /**
     * The role whose wire value is {@code value}, ignoring case and surrounding whitespace.
     *
     * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
     */
    public static Role fromWireValue(String value) {
      if (value != null) {
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        for (Role role : values()) {
          if (role.wireValue.equals(normalized)) {
            return role;
          }
        }
      }
      throw new IllegalArgumentException("unknown chat role '" + value + "'; expected one of system, user, assistant, tool");
    }
  }

  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  /** A {@link Role#SYSTEM} message. */
  public static ChatMessage system(String content) {
    return new ChatMessage(Role.SYSTEM, content);
  }

  /** A {@link Role#USER} message. */
  public static ChatMessage user(String content) {
    return new ChatMessage(Role.USER, content);
  }

  /** An {@link Role#ASSISTANT} message. */
  public static ChatMessage assistant(String content) {
    return new ChatMessage(Role.ASSISTANT, content);
  }

  /**
   * A {@link Role#TOOL} message (a tool's output handed back to the model). OpenAI itself requires a
   * {@code tool_call_id} on tool messages, which this message does not carry: it answers such a request 400
   * ({@code PERMANENT}); Ollama and most compatible servers accept it.
   */
  public static ChatMessage tool(String content) {
    return new ChatMessage(Role.TOOL, content);
  }

  @Override
  public String toString() {
    return "ChatMessage[role=" + role.wireValue + ", content=<" + content.length() + " chars>]";
  }
}
