package io.zeocore.llm;

import static io.zeocore.llm.LoopbackServer.ollamaReply;
import static io.zeocore.llm.LoopbackServer.openAiReply;
import static io.zeocore.llm.LoopbackServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.CancellationToken;
import io.zeocore.execution.ClosingHttpServer;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SettableCancellationToken;
import io.zeocore.execution.SyncExecutionTarget;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LlmTargetsTest {

  private static final List<ChatMessage> MESSAGES = List.of(ChatMessage.user("Summarize the ticket."));
  private static final Duration GENEROUS = Duration.ofSeconds(5);

  @RegisterExtension
  final LoopbackServer server = LoopbackServer.forEachTest();
  private final List<Duration> slept = new CopyOnWriteArrayList<>();

  private OllamaClient ollama(URI baseUrl, Duration timeout) {
    return new OllamaClient(baseUrl, "qwen3:latest", timeout);
  }

  /** A runner whose backoff is recorded instead of slept. */
  private ResilientRunner runner() {
    return ResilientRunner.builder().sleeper(slept::add).build();
  }

  private static AttemptContext context(Duration timeout, CancellationToken token) {
    return new AttemptContext(1, "ollama-local", timeout, timeout, token);
  }

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(120))
        .attemptTimeout(Duration.ofSeconds(90))
        .attemptTargets(plan);
  }

  @ParameterizedTest(name = "HTTP {0} -> {1}")
  @CsvSource({
      "429, RATE_LIMIT",
      "401, AUTHENTICATION",
      "403, AUTHENTICATION",
      "408, TIMEOUT",
      "504, TIMEOUT",
      "500, TRANSIENT",
      "502, TRANSIENT",
      "503, TRANSIENT",
      "599, TRANSIENT",
      "400, PERMANENT",
      "404, PERMANENT",
      "409, PERMANENT",
      "418, PERMANENT",
      "422, PERMANENT",
      "302, PERMANENT",
      "600, PERMANENT"})
  void mapsEveryStatusByTheReferenceTable(int statusCode, FailureKind expected) {
    server.replies(status(statusCode, "{\"error\":\"x\"}"));
    SyncExecutionTarget<String> target =
        LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), MESSAGES);

    AttemptError error = catchThrowableOfType(AttemptError.class,
        () -> target.invocation().invoke(context(GENEROUS, CancellationToken.never())));

    assertThat(error.kind()).isEqualTo(expected);
    assertThat(error.dispatchStarted()).isTrue();
    assertThat(error.retryAfter()).isEmpty();
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void theTargetIsAOneAttemptLiveStringTarget() {
    SyncExecutionTarget<String> target =
        LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), MESSAGES);

    assertThat(target.targetId()).isEqualTo("ollama-local");
    assertThat(target.responseType()).isEqualTo(String.class);
    assertThat(target.internalMaxAttempts()).isEqualTo(1);
    assertThat(target.preflightFailure()).isNull();
    assertThat(target.executionMode()).hasToString("LIVE");
  }

  @Test
  void refusesStreamingAndEmptyPlansAtConstruction() {
    OllamaClient client = ollama(server.baseUrl(), GENEROUS);
    LlmOptions streaming = LlmOptions.builder().stream(true).build();

    assertThatThrownBy(() -> LlmTargets.chatTarget("ollama-local", client, MESSAGES, streaming))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stream=true is refused");
    assertThatThrownBy(() -> LlmTargets.chatTarget("ollama-local", client, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LlmTargets.chatTarget("bad id!", client, MESSAGES))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void copiesTheMessagesWhenBuilt() throws Exception {
    server.replies(ollamaReply("ok"));
    List<ChatMessage> messages = new ArrayList<>(MESSAGES);
    SyncExecutionTarget<String> target =
        LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), messages);
    messages.add(ChatMessage.user("added later"));

    target.invocation().invoke(context(GENEROUS, CancellationToken.never()));

    assertThat(server.onlyRequest().json().path("messages")).hasSize(1);
  }

  @Test
  void retryAfterSecondsReachTheAttemptErrorAndTheRunnersDelay() {
    server.replies(status(429, "{}", Map.of("Retry-After", "2")), ollamaReply("after the wait"));
    ExecutionPolicy samePlanTwice = policy("ollama-local", "ollama-local").backoff(Duration.ofMillis(500)).build();

    ResilientExecutionResult<String> result = runner().runSync(samePlanTwice,
        Map.of("ollama-local", LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), MESSAGES)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo("after the wait");
    AttemptRecord first = result.attempts().get(0);
    assertThat(first.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(first.backoffBeforeNext()).isEqualTo(Duration.ofSeconds(2));
    assertThat(slept.stream().reduce(Duration.ZERO, Duration::plus)).isEqualTo(Duration.ofSeconds(2));
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void aServerThatNeverAnswersIsStoppedAtTheAttemptTimeout() {
    server.replies(server.hang());
    Duration attemptTimeout = Duration.ofMillis(300);
    ExecutionPolicy policy = policy("ollama-local").attemptTimeout(attemptTimeout).build();
    // the client's own timeout is far longer: the attempt's must win
    OllamaClient client = ollama(server.baseUrl(), Duration.ofSeconds(60));

    ResilientExecutionResult<String> result =
        runner().runSync(policy, Map.of("ollama-local", LlmTargets.chatTarget("ollama-local", client, MESSAGES)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    AttemptRecord attempt = result.attempts().get(0);
    assertThat(attempt.dispatchStarted()).isTrue();
    assertThat(attempt.timeout()).isEqualTo(attemptTimeout);
    assertThat(attempt.duration()).isGreaterThanOrEqualTo(attemptTimeout).isLessThan(GENEROUS);
  }

  @Test
  void theClientTimeoutBoundsTheCallWhenItIsShorterThanTheAttempt() {
    server.replies(server.hang());
    SyncExecutionTarget<String> target =
        LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), Duration.ofMillis(250)), MESSAGES);

    long start = System.nanoTime();
    AttemptError error = catchThrowableOfType(AttemptError.class,
        () -> target.invocation().invoke(context(Duration.ofSeconds(60), CancellationToken.never())));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(error.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(250)).isLessThan(GENEROUS);
  }

  @Test
  void connectionRefusedFallsBackToTheNextTargetWithoutADispatch() throws Exception {
    server.replies(openAiReply("from the fallback"));
    OllamaClient down = ollama(LoopbackServer.refusedBaseUrl(), GENEROUS);
    OpenAiClient up = new OpenAiClient(server.baseUrl(), "sk-test", "gpt-4o", GENEROUS, null);

    ResilientExecutionResult<String> result = runner().runSync(policy("ollama-local", "openai-api").build(), Map.of(
        "ollama-local", LlmTargets.chatTarget("ollama-local", down, MESSAGES),
        "openai-api", LlmTargets.chatTarget("openai-api", up, MESSAGES)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("openai-api");
    AttemptRecord refused = result.attempts().get(0);
    assertThat(refused.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(refused.dispatchStarted()).isFalse();
    assertThat(result.attempts().get(1).outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(server.requests()).hasSize(1);
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.EnumSource(ClosingHttpServer.Failure.class)
  void aConnectionLostAfterTheRequestWasSentIsTransientAfterDispatchForBothClients(ClosingHttpServer.Failure failure)
      throws Exception {
    server.replies(openAiReply("from the fallback"));
    try (ClosingHttpServer closing = new ClosingHttpServer(failure)) {
      URI base = URI.create(closing.baseUrl());
      ResilientExecutionResult<String> result = runner().runSync(
          policy("ollama-local", "openai-lost", "openai-api").build(), Map.of(
              "ollama-local", LlmTargets.chatTarget("ollama-local", ollama(base, GENEROUS), MESSAGES),
              "openai-lost", LlmTargets.chatTarget("openai-lost",
                  new OpenAiClient(base, "sk-test", "gpt-4o", GENEROUS, null), MESSAGES),
              "openai-api", LlmTargets.chatTarget("openai-api",
                  new OpenAiClient(server.baseUrl(), "sk-test", "gpt-4o", GENEROUS, null), MESSAGES)));

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(result.selectedTargetId()).isEqualTo("openai-api");
      assertThat(result.attempts().subList(0, 2)).allSatisfy(lost -> {
        assertThat(lost.failureKind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(lost.dispatchStarted()).isTrue();
      });
      assertThat(closing.requestsRead()).isEqualTo(2);
    }
  }

  @Test
  void aMalformed200EndsFailedSafeWithoutTryingTheFallback() throws Exception {
    server.replies(status(200, "{\"message\": {\"content\": \"\"}}"));
    try (LoopbackServer fallback = openAiProvider("never asked")) {
      ResilientExecutionResult<String> result = runner().runSync(policy("ollama-local", "openai-api").build(), Map.of(
          "ollama-local", LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), MESSAGES),
          "openai-api", LlmTargets.chatTarget("openai-api",
              new OpenAiClient(fallback.baseUrl(), "sk-test", "gpt-4o", GENEROUS, null), MESSAGES)));

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
      assertThat(result.failureKind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
      assertThat(result.attempts()).hasSize(1);
      assertThat(fallback.requests()).isEmpty();
    }
  }

  @Test
  void aMissingApiKeyIsAPreDispatchPermanentFailure() {
    OpenAiClient keyless = OpenAiClient.builder().baseUrl(server.baseUrl()).build();

    ResilientExecutionResult<String> result = runner().runSync(policy("openai-api").build(),
        Map.of("openai-api", LlmTargets.chatTarget("openai-api", keyless, MESSAGES)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.failureKind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void eachAttemptMakesOneRequestEvenWhenTheClientsLegacyRetryCountIsThree() {
    server.replies(status(503, "{}"));
    OllamaClient client = OllamaClients.withLegacyRetryOfThreeThatMustNotRun(server.baseUrl(),
        "targets must never use the legacy retry loop");

    ResilientExecutionResult<String> result = runner().runSync(policy("ollama-local", "ollama-local").build(),
        Map.of("ollama-local", LlmTargets.chatTarget("ollama-local", client, MESSAGES)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.attempts()).hasSize(2);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void theCancellationTokenStopsAPendingCall() {
    server.replies(server.hang());
    SettableCancellationToken token = new SettableCancellationToken();
    Thread canceller = new Thread(() -> {
      sleepQuietly(Duration.ofMillis(150));
      token.cancel();
    });
    canceller.start();

    ResilientExecutionResult<String> result = runner().runSync(
        policy("ollama-local", "ollama-local").attemptTimeout(Duration.ofSeconds(30)).build(),
        Map.of("ollama-local", LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), MESSAGES)),
        token);

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.attempts()).hasSize(1);
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(result.totalElapsed()).isLessThan(GENEROUS);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void anAlreadyCancelledTokenSendsNothing() {
    SettableCancellationToken token = new SettableCancellationToken();
    token.cancel();
    SyncExecutionTarget<String> target =
        LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), GENEROUS), MESSAGES);

    AttemptError error =
        catchThrowableOfType(AttemptError.class, () -> target.invocation().invoke(context(GENEROUS, token)));

    assertThat(error.kind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(error.dispatchStarted()).isFalse();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void interruptingTheCallingThreadEndsTheRunCancelledWithTheFlagSet() throws Exception {
    server.replies(server.hang());
    AtomicReference<ResilientExecutionResult<String>> result = new AtomicReference<>();
    AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      result.set(runner().runSync(policy("ollama-local").attemptTimeout(Duration.ofSeconds(30)).build(),
          Map.of("ollama-local",
              LlmTargets.chatTarget("ollama-local", ollama(server.baseUrl(), Duration.ofSeconds(30)), MESSAGES))));
      interruptedAfter.set(Thread.currentThread().isInterrupted());
    });
    caller.start();
    while (server.requests().isEmpty()) {
      sleepQuietly(Duration.ofMillis(10));
    }
    caller.interrupt();
    caller.join(GENEROUS.toMillis());

    assertThat(caller.isAlive()).isFalse();
    assertThat(result.get().outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(interruptedAfter.get()).isTrue();
  }

  /**
   * The seed page's policy: {@code ollama-local} then {@code openai-api}, 120 s total, 90 s per attempt, 500 ms
   * backoff; the first provider answers 503.
   */
  @Test
  void theSeedPolicyFallsBackFromAnOverloadedOllamaToOpenAi() throws Exception {
    server.replies(status(503, "{\"error\":\"server busy\"}"));
    try (LoopbackServer openAi = openAiProvider("Summary from OpenAI.")) {
      ExecutionPolicy seedPolicy = ExecutionPolicy.builder()
          .totalTimeout(Duration.ofSeconds(120))
          .attemptTimeout(Duration.ofSeconds(90))
          .attemptTargets("ollama-local", "openai-api")
          .backoff(Duration.ofMillis(500))
          .build();
      OllamaClient ollamaClient = new OllamaClient(server.baseUrl(), "qwen3:latest", Duration.ofSeconds(90));
      OpenAiClient openAiClient =
          new OpenAiClient(URI.create(openAi.baseUrl() + "/v1"), "sk-seed", "gpt-4o", Duration.ofSeconds(90), null);
      List<AttemptRecord> heard = new CopyOnWriteArrayList<>();

      ResilientExecutionResult<String> result = ResilientRunner.builder()
          .sleeper(slept::add)
          .listener((policy, record) -> heard.add(record))
          .build()
          .runSync(seedPolicy, Map.of(
              "ollama-local", LlmTargets.chatTarget("ollama-local", ollamaClient, MESSAGES),
              "openai-api", LlmTargets.chatTarget("openai-api", openAiClient, MESSAGES)));

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(result.value()).isEqualTo("Summary from OpenAI.");
      assertThat(result.selectedTargetId()).isEqualTo("openai-api");
      assertThat(result.attempts()).hasSize(2);
      AttemptRecord first = result.attempts().get(0);
      assertThat(first.targetId()).isEqualTo("ollama-local");
      assertThat(first.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(first.machineCode()).isEqualTo("ZEO_EXEC_TRANSIENT");
      assertThat(first.dispatchStarted()).isTrue();
      assertThat(first.backoffBeforeNext()).isEqualTo(Duration.ofMillis(500));
      assertThat(first.timeout()).isEqualTo(Duration.ofSeconds(90));
      assertThat(result.attempts().get(1).targetId()).isEqualTo("openai-api");
      assertThat(heard).containsExactlyElementsOf(result.attempts());
      assertThat(server.onlyRequest().json().path("model").stringValue()).isEqualTo("qwen3:latest");
      assertThat(openAi.onlyRequest().json().path("model").stringValue()).isEqualTo("gpt-4o");
      assertThat(slept.stream().reduce(Duration.ZERO, Duration::plus)).isEqualTo(Duration.ofMillis(500));
    }
  }

  private static void sleepQuietly(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts a second, OpenAI-compatible provider that answers with {@code content}; the caller closes it. */
  private static LoopbackServer openAiProvider(String content) throws IOException {
    LoopbackServer provider = LoopbackServer.start();
    provider.replies(openAiReply(content));
    return provider;
  }
}
