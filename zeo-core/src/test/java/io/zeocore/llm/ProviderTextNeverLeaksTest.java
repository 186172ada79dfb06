package io.zeocore.llm;

import static io.zeocore.llm.LoopbackServer.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.CancellationToken;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.RecordingAttemptListener;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A canary string in everything a provider sends back — error bodies, malformed success bodies, headers — must never
 * appear in attempt records, results, exceptions (with their causes and stack traces) or log output.
 */
class ProviderTextNeverLeaksTest {

  private static final String CANARY = "CANARYproviderText3f9e1c";
  private static final List<ChatMessage> MESSAGES = List.of(ChatMessage.user("hello"));
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private LoopbackServer server;
  private PrintStream originalErr;
  private PrintStream originalOut;
  private final ByteArrayOutputStream logs = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    server = LoopbackServer.start();
    originalErr = System.err;
    originalOut = System.out;
    PrintStream capture = new PrintStream(logs, true, StandardCharsets.UTF_8);
    System.setErr(capture);
    System.setOut(capture);
  }

  @AfterEach
  void stop() {
    System.setErr(originalErr);
    System.setOut(originalOut);
    server.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 503, 400, 401, 429, 200})
  void aCanaryInAnyResponseNeverReachesRecordsExceptionsOrLogs(int statusCode) throws Exception {
    String body = statusCode == 200
        ? CANARY + " is not JSON {\"message\": {\"content\": \"" + CANARY + "\"}"
        : "{\"error\": {\"message\": \"" + CANARY + "\", \"type\": \"" + CANARY + "\"}}";
    server.replies(status(statusCode, body, Map.of("Retry-After", CANARY, "X-Provider-Note", CANARY)));
    LegacyRetry noWait = LegacyRetry.defaults().withSleeper(delay -> { });
    OllamaClient ollama = OllamaClient.builder().baseUrl(server.baseUrl()).legacyRetry(noWait).build();
    OpenAiClient openAi =
        OpenAiClient.builder().baseUrl(server.baseUrl()).apiKey("sk-test").legacyRetry(noWait).build();
    StringBuilder evidence = new StringBuilder();

    for (LlmClient client : List.of(ollama, openAi)) {
      SyncExecutionTarget<String> target = LlmTargets.chatTarget("llm", client, MESSAGES);

      // the exception a target throws, with its whole cause chain and stack trace
      try {
        target.invocation().invoke(new AttemptContext(1, "llm", TIMEOUT, TIMEOUT, CancellationToken.never()));
        throw new AssertionError("the call must fail");
      } catch (Exception failure) {
        evidence.append(stackTrace(failure));
      }

      // the legacy loop logs each retry
      try {
        client.chat(MESSAGES, null);
        throw new AssertionError("the call must fail");
      } catch (LlmCallException failure) {
        evidence.append(stackTrace(failure));
      }

      // records, listener callbacks and the result of a run
      RecordingAttemptListener heard = new RecordingAttemptListener();
      ResilientExecutionResult<String> result = ResilientRunner.builder()
          .sleeper(delay -> { })
          .listener(heard)
          .build()
          .runSync(ExecutionPolicy.builder()
              .totalTimeout(TIMEOUT)
              .attemptTimeout(TIMEOUT)
              .attemptTargets("llm", "llm")
              .retryableFailures(FailureKind.TRANSIENT,
                  FailureKind.RATE_LIMIT,
                  FailureKind.MALFORMED_RESPONSE)
              .build(), Map.of("llm", target));
      evidence.append(result).append(result.attempts()).append(heard.attempts).append(heard.runs);
      assertThat(result.value()).isNull();
    }

    System.err.flush();
    String logged = logs.toString(StandardCharsets.UTF_8);
    assertThat(logged).as("the capture works: the legacy loop logged its retries").contains("legacy ollama chat call 1");
    assertThat(server.requests()).isNotEmpty();
    assertThat(evidence.toString()).doesNotContain(CANARY).contains("ZEO_EXEC_");
    assertThat(logged).doesNotContain(CANARY);
  }

  private static String stackTrace(Throwable failure) {
    StringWriter out = new StringWriter();
    failure.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
