package io.zeocore.llm;

import java.net.URI;
import java.time.Duration;

/** Ollama clients the LLM tests share. */
final class OllamaClients {

  private OllamaClients() {}

  /**
   * A client of {@code baseUrl} whose legacy retry is configured for three attempts but whose sleeper fails the test
   * with {@code whyNeverUsed}: a caller that made one request per call never reaches it.
   */
  static OllamaClient withLegacyRetryOfThreeThatMustNotRun(URI baseUrl, String whyNeverUsed) {
    return OllamaClient.builder()
        .baseUrl(baseUrl)
        .legacyRetry(new LegacyRetry(3, Duration.ofSeconds(1), Duration.ofSeconds(30), delay -> {
          throw new AssertionError(whyNeverUsed);
        }))
        .build();
  }
}
