package io.zeocore.llm;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reference's legacy retry loop around {@link LlmClient#chatOnce}. */
final class LegacyRetryLoop {

  private static final Logger log = LoggerFactory.getLogger(LlmClient.class);

  private LegacyRetryLoop() {}

  static String run(LlmClient client, List<ChatMessage> messages, LlmOptions options, LegacyRetry retry)
      throws LlmCallException, InterruptedException {
    LlmOptions effective = options == null ? LlmOptions.defaults() : options;
    int retries = 0;
    Duration delay = retry.initialDelay();
    while (true) {
      try {
        return client.chatOnce(messages, effective, client.timeout());
      } catch (LlmCallException failure) {
        if (failure.reason() == LlmCallException.Reason.CONFIGURATION
            || failure.reason() == LlmCallException.Reason.CANCELLED) {
          throw failure;
        }
        retries++;
        if (retries > retry.retryCount()) {
          throw failure;
        }
        // reason and status only: the exception message is safe too, but keep the log line structured
        log.warn("legacy {} chat call {} of {} failed ({}{}); retrying in {} ms", failure.provider(), retries,
            retry.retryCount() + 1, failure.reason(),
            failure.status().isPresent() ? " " + failure.status().getAsInt() : "", delay.toMillis());
        retry.sleeper().sleep(delay);
        Duration doubled = delay.multipliedBy(2);
        delay = doubled.compareTo(retry.maxDelay()) > 0 ? retry.maxDelay() : doubled;
      }
    }
  }
}
