package io.zeocore.llm;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;

/** How the client tests catch the {@link LlmCallException} of a call that must fail. */
final class LlmCallFailures {

  private LlmCallFailures() {}

  /** The exception with which one {@code chatOnce} of {@code messages} (default options) fails. */
  static LlmCallException chatOnceFailure(LlmClient client, List<ChatMessage> messages, Duration timeout) {
    return catchThrowableOfType(LlmCallException.class,
        () -> client.chatOnce(messages, LlmOptions.defaults(), timeout));
  }
}
