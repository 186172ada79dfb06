package io.zeocore.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptError;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.llm.LoopbackServer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.ollama.OllamaChatModel;
import org.springframework.ai.ollama.api.OllamaApi;
import org.springframework.ai.ollama.api.OllamaChatOptions;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.retry.RetryUtils;

/**
 * Real Spring AI clients ({@code OllamaChatModel}, {@code OpenAiChatModel} on the OpenAI SDK) against a real loopback
 * HTTP server speaking their wire protocols, with Spring AI's own retries left at their defaults (10 retries for the
 * RetryTemplate, 3 for the OpenAI SDK). Every test asserts how many HTTP requests reached the server.
 */
class SpringAiTargetsTest {

  private static final String CANARY = "CANARY-provider-text-7f3a";
  private static final Prompt PROMPT = new Prompt("Summarize the ticket.");

  @RegisterExtension
  final LoopbackServer ollamaServer = LoopbackServer.forEachTest();
  @RegisterExtension
  final LoopbackServer openAiServer = LoopbackServer.forEachTest();
  private final List<Duration> slept = new CopyOnWriteArrayList<>();

  /** An Ollama model as Spring AI builds it by default: RetryUtils' default template, 10 retries. */
  private static OllamaChatModel ollama(URI baseUrl) {
    return SpringAiModels.ollama(baseUrl, "m");
  }

  /** An OpenAI model with the SDK's default 3 retries and ZeoCore's one-call interceptor. */
  private static OpenAiChatModel openAi(URI baseUrl) {
    return SpringAiModels.openAi(baseUrl, "m", 3);
  }

  /**
   * The attempt timeout of a call the server answers: long enough that no answered call times out on a loaded
   * machine (it costs nothing: the call ends when answered).
   */
  private static final Duration ANSWERED = Duration.ofSeconds(30);

  /** The attempt timeout of a call the server never answers: what the hanging tests wait for. */
  private static final Duration HANGING = Duration.ofSeconds(3);

  /** Far above {@link #HANGING}, far below "never": a hung call ended by its attempt timeout ends before this. */
  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private ResilientRunner runner() {
    return ResilientRunner.builder().sleeper(slept::add).build();
  }

  private static ExecutionPolicy policy(Duration attemptTimeout, String... plan) {
    List<Duration> backoff = new ArrayList<>();
    for (int i = 1; i < plan.length; i++) {
      backoff.add(Duration.ofMillis(10));
    }
    return ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(120))
        .attemptTimeout(attemptTimeout)
        .attemptTargets(plan)
        .backoff(backoff)
        .build();
  }

  private Map<String, SyncExecutionTarget<ChatResponse>> targets() {
    Map<String, SyncExecutionTarget<ChatResponse>> targets = new LinkedHashMap<>();
    targets.put("ollama", SpringAiTargets.chatTarget("ollama", ollama(ollamaServer.baseUrl()), PROMPT));
    targets.put("openai", SpringAiTargets.chatTarget("openai", openAi(openAiServer.baseUrl()), PROMPT)
        .withInternalMaxAttempts(1));
    return targets;
  }

  private static String text(ResilientExecutionResult<ChatResponse> result) {
    return result.value().getResult().getOutput().getText();
  }

  @Test
  void ollamaModelAnswersWithOneRequestOnTheOllamaWire() {
    ollamaServer.replies(LoopbackServer.ollamaReply("the summary"));

    assertAnswersTheSummaryWithOneRequest("ollama", ollamaServer, "/api/chat");
  }

  @Test
  void openAiModelAnswersWithOneRequestOnTheChatCompletionsWire() {
    openAiServer.replies(LoopbackServer.openAiReply("the summary"));

    assertAnswersTheSummaryWithOneRequest("openai", openAiServer, "/v1/chat/completions");
  }

  /** A one-attempt plan on {@code targetId} succeeds with "the summary" after one request to {@code path}. */
  private void assertAnswersTheSummaryWithOneRequest(String targetId, LoopbackServer server, String path) {
    ResilientExecutionResult<ChatResponse> result = runner().runSync(policy(ANSWERED, targetId),
        targets());

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(text(result)).isEqualTo("the summary");
    assertThat(server.onlyRequest().path()).isEqualTo(path);
  }

  @Test
  void failingOllamaFallsBackToOpenAiWithExactlyOneRequestEach() {
    ollamaServer.replies(LoopbackServer.status(503, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.openAiReply("from openai"));

    ResilientExecutionResult<ChatResponse> result = runner().runSync(
        policy(ANSWERED, "ollama", "openai"), targets());

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("openai");
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind)
        .containsExactly(FailureKind.TRANSIENT, null);
    assertThat(ollamaServer.requests()).hasSize(1);
    assertThat(openAiServer.requests()).hasSize(1);
    assertThat(result.toString()).doesNotContain(CANARY);
  }

  @Test
  void everyAttemptIsExactlyOneRequestWithSpringAiRetriesAtTheirDefaults() {
    ollamaServer.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.status(500, "{\"error\":{\"message\":\"" + CANARY + "\"}}"));

    ResilientExecutionResult<ChatResponse> result = runner().runSync(
        policy(ANSWERED, "ollama", "openai", "ollama", "openai"), targets());

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.attempts()).hasSize(4).allSatisfy(attempt -> {
      assertThat(attempt.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(attempt.dispatchStarted()).isTrue();
    });
    // four attempts, four requests: neither RetryTemplate (10 retries) nor the OpenAI SDK (3) added one
    assertThat(ollamaServer.requests()).hasSize(2);
    assertThat(openAiServer.requests()).hasSize(2);
    assertThat(openAiServer.requests()).allSatisfy(
        request -> assertThat(request.headers().getFirst("X-Stainless-Retry-Count")).isEqualTo("0"));
  }

  @Test
  void rateLimitCarriesRetryAfterIntoTheNextBackoffFromBothModels() {
    ollamaServer.replies(LoopbackServer.status(429, "{\"error\":\"" + CANARY + "\"}", Map.of("Retry-After", "7")));
    openAiServer.replies(LoopbackServer.status(429, "{\"error\":{\"message\":\"" + CANARY + "\"}}",
        Map.of("Retry-After", "9")));

    ResilientExecutionResult<ChatResponse> result = runner().runSync(
        policy(ANSWERED, "ollama", "openai", "ollama"), targets());

    assertThat(result.attempts()).extracting(AttemptRecord::failureKind)
        .containsExactly(FailureKind.RATE_LIMIT, FailureKind.RATE_LIMIT, FailureKind.RATE_LIMIT);
    assertThat(result.attempts().get(0).backoffBeforeNext()).isGreaterThanOrEqualTo(Duration.ofSeconds(7));
    assertThat(result.attempts().get(1).backoffBeforeNext()).isGreaterThanOrEqualTo(Duration.ofSeconds(9));
    assertThat(ollamaServer.requests()).hasSize(2);
    assertThat(openAiServer.requests()).hasSize(1);
  }

  @Test
  void aHangingOllamaIsAbandonedAtTheAttemptTimeoutAndFallsBack() {
    ollamaServer.replies(ollamaServer.hang());
    openAiServer.replies(LoopbackServer.openAiReply("from openai"));

    ResilientExecutionResult<ChatResponse> result = runner().runSync(policy(HANGING, "ollama", "openai"), targets());

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("openai");
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind).containsExactly(FailureKind.TIMEOUT, null);
    // abandoned at its own timeout: the JDK client under Spring AI's RestClient has no timeout of its own, and the
    // server holds the exchange until it is closed after the test
    assertThat(result.attempts().get(0).duration()).isLessThan(GENEROUS);
    // however late the request arrived on a loaded machine, it was never repeated
    assertThat(ollamaServer.requests()).hasSizeLessThanOrEqualTo(1);
    assertThat(openAiServer.requests()).hasSize(1);
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void aHangingOpenAiCallTimesOutThroughItsPerRequestTimeout() {
    openAiServer.replies(openAiServer.hang());

    ResilientExecutionResult<ChatResponse> result = runner().runSync(policy(HANGING, "openai"), targets());

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(result.attempts().get(0).duration()).isLessThan(GENEROUS);
    assertThat(openAiServer.requests()).hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void unparseableOutputIsMalformedForBothModels() {
    ollamaServer.replies(LoopbackServer.status(200, "not json " + CANARY));
    openAiServer.replies(LoopbackServer.status(200, "not json " + CANARY));

    ResilientExecutionResult<ChatResponse> result = runner().runSync(
        policy(ANSWERED, "ollama", "openai"),
        targets());

    assertThat(result.attempts()).extracting(AttemptRecord::failureKind)
        .containsExactly(FailureKind.MALFORMED_RESPONSE);
    assertThat(ollamaServer.requests()).hasSize(1);

    AttemptError openAiError = attemptError(SpringAiTargets.chatTarget("openai", openAi(openAiServer.baseUrl()),
        PROMPT));
    assertThat(openAiError.kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(openAiServer.requests()).hasSize(1);
  }

  @Test
  void anEmptyAnswerIsMalformed() {
    ollamaServer.replies(LoopbackServer.ollamaReply(""));

    assertThat(attemptError(SpringAiTargets.chatTarget("ollama", ollama(ollamaServer.baseUrl()), PROMPT)).kind())
        .isEqualTo(FailureKind.MALFORMED_RESPONSE);
  }

  @Test
  void textTargetAnswersTheReplysText() throws Exception {
    ollamaServer.replies(LoopbackServer.ollamaReply("just text"));

    SyncExecutionTarget<String> target = SpringAiTargets.textTarget("ollama", ollama(ollamaServer.baseUrl()), PROMPT);

    assertThat(target.invocation().invoke(new io.zeocore.execution.AttemptContext(1, "ollama", ANSWERED,
        ANSWERED, io.zeocore.execution.CancellationToken.never()))).isEqualTo("just text");
    assertThat(ollamaServer.requests()).hasSize(1);
  }

  record Summary(String title, int severity) {}

  @Test
  void entityTargetMapsTheAnswerThroughSpringAisConverter() {
    ollamaServer.replies(LoopbackServer.ollamaReply("{\"title\":\"Printer on fire\",\"severity\":3}"));

    ResilientExecutionResult<Summary> result = runner().runSync(policy(ANSWERED, "ollama"),
        Map.of("ollama", SpringAiTargets.entityTarget("ollama", ollama(ollamaServer.baseUrl()), PROMPT,
            Summary.class)));

    assertThat(result.value()).isEqualTo(new Summary("Printer on fire", 3));
    // the converter's format instructions went with the prompt
    assertThat(new String(ollamaServer.onlyRequest().body())).contains("JSON");
  }

  @Test
  void anAnswerThatDoesNotConvertIsMalformedAndCarriesNoProviderText() {
    ollamaServer.replies(LoopbackServer.ollamaReply("sorry, " + CANARY));

    AttemptError error = attemptError(SpringAiTargets.entityTarget("ollama", ollama(ollamaServer.baseUrl()), PROMPT,
        Summary.class));

    assertThat(error.kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertNoCanary(error);
  }

  @Test
  void connectionRefusedIsTransientBeforeDispatchForBothModels() throws Exception {
    URI closed = LoopbackServer.refusedBaseUrl();
    AttemptError ollama = attemptError(SpringAiTargets.chatTarget("ollama", ollama(closed), PROMPT));
    AttemptError openAi = attemptError(SpringAiTargets.chatTarget("openai", openAi(closed), PROMPT));

    assertThat(ollama.kind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(ollama.dispatchStarted()).isFalse();
    assertThat(openAi.kind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(openAi.dispatchStarted()).isFalse();
  }

  @Test
  void statusesAreClassifiedLikeZeoCoresOwnLlmClients() {
    // 408 is left out of the request count: OkHttp itself (below every interceptor the OpenAI SDK lets ZeoCore add)
    // repeats a request once on a 408 without Retry-After; see statusOf408IsTimeout
    Map<Integer, FailureKind> expected = Map.of(401, FailureKind.AUTHENTICATION, 403, FailureKind.AUTHENTICATION,
        429, FailureKind.RATE_LIMIT, 504, FailureKind.TIMEOUT, 502, FailureKind.TRANSIENT, 400, FailureKind.PERMANENT,
        404, FailureKind.PERMANENT);
    expected.forEach((status, kind) -> {
      ollamaServer.replies(LoopbackServer.status(status, "{\"error\":\"" + CANARY + "\"}"));
      openAiServer.replies(LoopbackServer.status(status, "{\"error\":{\"message\":\"" + CANARY + "\"}}"));
      AttemptError ollama = attemptError(SpringAiTargets.chatTarget("ollama", ollama(ollamaServer.baseUrl()),
          PROMPT));
      AttemptError openAi = attemptError(SpringAiTargets.chatTarget("openai", openAi(openAiServer.baseUrl()),
          PROMPT));
      assertThat(ollama.kind()).as("ollama %s", status).isEqualTo(kind);
      assertThat(openAi.kind()).as("openai %s", status).isEqualTo(kind);
      assertNoCanary(ollama);
      assertNoCanary(openAi);
    });
    // one request per call, whatever the status
    assertThat(ollamaServer.requests()).hasSize(expected.size());
    assertThat(openAiServer.requests()).hasSize(expected.size());
  }

  @Test
  void statusOf408IsTimeout() {
    ollamaServer.replies(LoopbackServer.status(408, "{}"));
    openAiServer.replies(LoopbackServer.status(408, "{}"));

    assertThat(attemptError(SpringAiTargets.chatTarget("ollama", ollama(ollamaServer.baseUrl()), PROMPT)).kind())
        .isEqualTo(FailureKind.TIMEOUT);
    assertThat(attemptError(SpringAiTargets.chatTarget("openai", openAi(openAiServer.baseUrl()), PROMPT)).kind())
        .isEqualTo(FailureKind.TIMEOUT);
    assertThat(ollamaServer.requests()).hasSize(1);
    // OkHttp's own follow-up of a 408 (RetryAndFollowUpInterceptor), not the SDK's retry: at most one more
    assertThat(openAiServer.requests()).hasSizeBetween(1, 2);
  }

  @Test
  void anOpenAiModelWhoseSdkRetriesIsRefusedAsNestedRetriesUnlessConfirmed() {
    OpenAiChatModel retrying = OpenAiChatModel.builder()
        .options(OpenAiChatOptions.builder().baseUrl(openAiServer.baseUrl() + "/v1").apiKey("k").model("m").build())
        .build();

    ResilientExecutionResult<ChatResponse> result = runner().runSync(policy(ANSWERED, "openai"),
        Map.of("openai", SpringAiTargets.chatTarget("openai", retrying, PROMPT)));

    assertThat(SpringAiTargets.declaredCalls(retrying)).isEqualTo(4);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.NESTED_RETRIES);
    assertThat(openAiServer.requests()).isEmpty();
  }

  @Test
  void callsOutsideZeoCoreAttemptsKeepSpringAisOwnRetries() {
    ollamaServer.replies(LoopbackServer.status(500, "{}"), LoopbackServer.ollamaReply("second time lucky"));
    ChatModel model = OllamaChatModel.builder()
        .ollamaApi(OllamaApi.builder().baseUrl(ollamaServer.baseUrl().toString()).build())
        .options(OllamaChatOptions.builder().model("m").build())
        .retryTemplate(SpringAiRetries.oneCallInsideZeoCoreAttempts(new org.springframework.core.retry.RetryTemplate(
            org.springframework.core.retry.RetryPolicy.builder().maxRetries(2).delay(Duration.ofMillis(1))
                .includes(org.springframework.ai.retry.TransientAiException.class).build())))
        .build();

    assertThat(model.call(PROMPT).getResult().getOutput().getText()).isEqualTo("second time lucky");
    assertThat(ollamaServer.requests()).hasSize(2);
  }

  private static AttemptError attemptError(SyncExecutionTarget<?> target) {
    try {
      target.invocation().invoke(new io.zeocore.execution.AttemptContext(1, target.targetId(), ANSWERED,
          ANSWERED, io.zeocore.execution.CancellationToken.never()));
    } catch (AttemptError error) {
      return error;
    } catch (Exception other) {
      throw new AssertionError("expected an AttemptError, got " + other.getClass().getName(), other);
    }
    throw new AssertionError("expected an AttemptError, got a value");
  }

  private static void assertNoCanary(Throwable error) {
    for (Throwable link = error; link != null; link = link.getCause()) {
      assertThat(String.valueOf(link.getMessage())).doesNotContain(CANARY);
      assertThat(link.toString()).doesNotContain(CANARY);
    }
  }
}
