package io.zeocore.springai;

import static io.zeocore.llm.LoopbackServer.ollamaLines;
import static io.zeocore.llm.LoopbackServer.openAiLines;
import static io.zeocore.llm.LoopbackServer.plus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionFailedException;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.llm.LoopbackServer;
import io.zeocore.llm.LoopbackServer.StreamEnd;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.annotation.Tool;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * {@link PolicyChatModel#stream} over Spring AI's real Ollama and OpenAI models, against loopback servers speaking
 * their streaming formats (NDJSON and server-sent events) and counting the requests they receive.
 */
class PolicyChatModelStreamTest {

  private static final String CANARY = "canary-stream-provider-text-51c0";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @RegisterExtension
  final LoopbackServer ollamaServer = LoopbackServer.forEachTest();
  @RegisterExtension
  final LoopbackServer openAiServer = LoopbackServer.forEachTest();

  private final List<AttemptRecord> records = new CopyOnWriteArrayList<>();
  private final List<ResilientExecutionResult<?>> results = new CopyOnWriteArrayList<>();
  private final ResilientRunner runner = ResilientRunner.builder()
      .listener(new io.zeocore.execution.AttemptListener() {
        @Override
        public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
          records.add(record);
        }

        @Override
        public void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {
          results.add(result);
        }
      })
      .build();

  private LoopbackServer.Reply ollamaStream(List<String> lines, Duration gap, StreamEnd end) {
    return ollamaServer.streamed("application/x-ndjson", lines, gap, end);
  }

  private LoopbackServer.Reply openAiStream(List<String> lines, Duration gap, StreamEnd end) {
    return openAiServer.streamed("text/event-stream", lines, gap, end);
  }

  private PolicyChatModel plan(ChatModel first, String firstId, ChatModel second, String secondId,
      ExecutionPolicy.Builder policy) {
    return PolicyChatModel.builder().runner(runner)
        .policy(policy.name("chat").attemptTargets(firstId, secondId).build())
        .model(firstId, first)
        .model(secondId, second)
        .build();
  }

  private static ExecutionPolicy.Builder policy() {
    return ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(60)).attemptTimeout(Duration.ofSeconds(20));
  }

  private PolicyChatModel ollamaThenOpenAi(URI ollama, ExecutionPolicy.Builder policy) {
    return plan(SpringAiModels.ollama(ollama, "llama-m"), "ollama",
        SpringAiModels.openAi(openAiServer.baseUrl(), "gpt-m", 0), "openai", policy);
  }

  private PolicyChatModel openAiThenOllama(ExecutionPolicy.Builder policy) {
    return plan(SpringAiModels.openAi(openAiServer.baseUrl(), "gpt-m", 0), "openai",
        SpringAiModels.ollama(ollamaServer.baseUrl(), "llama-m"), "ollama", policy);
  }

  private static String text(List<ChatResponse> responses) {
    StringBuilder text = new StringBuilder();
    for (ChatResponse response : responses) {
      if (response.getResult() != null && response.getResult().getOutput().getText() != null) {
        text.append(response.getResult().getOutput().getText());
      }
    }
    return text.toString();
  }

  /** The responses the flux delivered before it ended, and how it ended. */
  private record Streamed(List<ChatResponse> responses, Throwable error) {}

  private static Streamed consume(Flux<ChatResponse> flux) {
    List<ChatResponse> responses = new CopyOnWriteArrayList<>();
    Throwable error = catchThrowable(() -> flux.doOnNext(responses::add).then().block(WAIT));
    return new Streamed(responses, error);
  }

  @Test
  void a500BeforeTheFirstChunkFallsBackToTheNextModelAndTheCallerSeesOnlyItsAnswer() {
    ollamaServer.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(openAiStream(plus(openAiLines("Hel", "lo"), LoopbackServer.openAiDone()), Duration.ZERO,
        StreamEnd.COMPLETE));

    Streamed streamed = consume(ollamaThenOpenAi(ollamaServer.baseUrl(), policy()).stream(new Prompt("hi")));

    assertThat(streamed.error()).isNull();
    assertThat(text(streamed.responses())).isEqualTo("Hello");
    ResilientExecutionResult<?> result = results.get(0);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("openai");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts().get(0).stream().chunks()).isZero();
    AttemptRecord answered = result.attempts().get(1);
    assertThat(answered.stream().chunks()).isGreaterThanOrEqualTo(2);
    assertThat(answered.usage()).isNotNull();
    assertThat(answered.usage().outputTokens()).isEqualTo(5L);
    assertThat(result.toString()).doesNotContain(CANARY);
  }

  @Test
  void aRefusedConnectionBeforeTheFirstChunkFallsBackWithoutDispatch() throws Exception {
    openAiServer.replies(openAiStream(plus(openAiLines("ok"), LoopbackServer.openAiDone()), Duration.ZERO,
        StreamEnd.COMPLETE));

    Streamed streamed = consume(ollamaThenOpenAi(LoopbackServer.refusedBaseUrl(), policy()).stream(new Prompt("hi")));

    assertThat(streamed.error()).isNull();
    assertThat(text(streamed.responses())).isEqualTo("ok");
    AttemptRecord refused = results.get(0).attempts().get(0);
    assertThat(refused.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(refused.dispatchStarted()).isFalse();
  }

  @Test
  void aStallBeforeTheFirstChunkHitsTheFirstChunkTimeoutAndFallsBack() {
    ollamaServer.replies(ollamaStream(List.of(), Duration.ZERO, StreamEnd.HANG));
    openAiServer.replies(openAiStream(plus(openAiLines("late", " but fine"), LoopbackServer.openAiDone()),
        Duration.ZERO, StreamEnd.COMPLETE));

    Streamed streamed = consume(ollamaThenOpenAi(ollamaServer.baseUrl(),
        policy().firstChunkTimeout(Duration.ofMillis(700))).stream(new Prompt("hi")));

    assertThat(streamed.error()).isNull();
    assertThat(text(streamed.responses())).isEqualTo("late but fine");
    AttemptRecord stalled = results.get(0).attempts().get(0);
    assertThat(stalled.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(stalled.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(690)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aCutAfterThreeChunksEndsTheStreamInterruptedAndTheFallbackIsNeverAsked() {
    openAiServer.replies(openAiStream(openAiLines("one ", "two ", "three "), Duration.ofMillis(20), StreamEnd.CUT));
    ollamaServer.replies(ollamaStream(plus(ollamaLines("never"), LoopbackServer.ollamaDone()), Duration.ZERO,
        StreamEnd.COMPLETE));

    Streamed streamed = consume(openAiThenOllama(policy()).stream(new Prompt("hi")));

    assertThat(text(streamed.responses())).isEqualTo("one two three ");
    assertThat(streamed.error()).isInstanceOf(ExecutionFailedException.class);
    ExecutionFailedException failure = (ExecutionFailedException) streamed.error();
    assertThat(failure.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(failure.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(failure.attempts()).singleElement()
        .satisfies(record -> assertThat(record.stream().chunks()).isEqualTo(3));
    assertThat(openAiServer.requests()).hasSize(1);
    assertThat(ollamaServer.requests()).as("no second request after partial output").isEmpty();
  }

  @Test
  void aStreamCutAfterTheProviderReportedItsUsageKeepsTheUsageOnTheInterruptedAttempt() {
    String usage = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
        + "\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,"
        + "\"total_tokens\":5}}\n\n";
    openAiServer.replies(openAiStream(plus(openAiLines("half ", "an answer"), usage), Duration.ofMillis(10),
        StreamEnd.CUT));

    Streamed streamed = consume(openAiThenOllama(policy()).stream(new Prompt("hi")));

    assertThat(text(streamed.responses())).isEqualTo("half an answer");
    ExecutionFailedException failure = (ExecutionFailedException) streamed.error();
    assertThat(failure.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(failure.attempts()).singleElement().satisfies(record -> {
      assertThat(record.usage()).isNotNull();
      assertThat(record.usage().outputTokens()).isEqualTo(2L);
    });
  }

  @Test
  void anIdleStallMidStreamEndsInterruptedAtTheIdleTimeout() {
    ollamaServer.replies(ollamaStream(ollamaLines("first ", "second "), Duration.ZERO, StreamEnd.HANG));
    openAiServer.replies(openAiStream(plus(openAiLines("never"), LoopbackServer.openAiDone()), Duration.ZERO,
        StreamEnd.COMPLETE));

    Streamed streamed = consume(ollamaThenOpenAi(ollamaServer.baseUrl(),
        policy().chunkIdleTimeout(Duration.ofMillis(700))).stream(new Prompt("hi")));

    assertThat(text(streamed.responses())).isEqualTo("first second ");
    ExecutionFailedException failure = (ExecutionFailedException) streamed.error();
    assertThat(failure.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(failure.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(openAiServer.requests()).isEmpty();
  }

  @Test
  void disposingMidStreamCancelsTheRunAndClosesTheServersConnection() throws Exception {
    List<String> endless = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      endless.add(LoopbackServer.ollamaChunk("tok" + i + " "));
    }
    ollamaServer.replies(ollamaStream(endless, Duration.ofMillis(50), StreamEnd.COMPLETE));
    AtomicInteger seen = new AtomicInteger();
    Disposable subscription = ollamaThenOpenAi(ollamaServer.baseUrl(), policy()).stream(new Prompt("hi"))
        .subscribe(response -> seen.incrementAndGet());
    long until = System.nanoTime() + WAIT.toNanos();
    while (seen.get() < 3 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(seen.get()).isGreaterThanOrEqualTo(3);
    subscription.dispose();

    long resultsUntil = System.nanoTime() + WAIT.toNanos();
    while (results.isEmpty() && System.nanoTime() < resultsUntil) {
      Thread.sleep(10);
    }
    assertThat(results).singleElement().satisfies(result -> {
      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
      assertThat(result.attempts().get(0).stream().chunks()).isGreaterThanOrEqualTo(3);
    });
    assertThat(openAiServer.requests()).isEmpty();
    assertThat(ollamaServer.clientClosed().await(10, TimeUnit.SECONDS)).as("the server saw the connection close")
        .isTrue();
  }

  @Test
  void chatClientStreamsContentOverThePlanWithTheSameRule() {
    ollamaServer.replies(LoopbackServer.status(503, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(openAiStream(plus(openAiLines("streamed ", "by ", "plan"), LoopbackServer.openAiDone()),
        Duration.ofMillis(5), StreamEnd.COMPLETE));

    List<String> content = ChatClient.create(ollamaThenOpenAi(ollamaServer.baseUrl(), policy()))
        .prompt().user("hi").stream().content().collectList().block(WAIT);

    assertThat(String.join("", content)).isEqualTo("streamed by plan");
    assertThat(results.get(0).selectedTargetId()).isEqualTo("openai");
  }

  /** A tool that counts its runs. */
  static final class Inventory {
    final AtomicInteger runs = new AtomicInteger();

    @Tool(description = "How many units of a product are in stock")
    int stock(String product) {
      runs.incrementAndGet();
      return 7;
    }
  }

  @Test
  void aStreamedToolCallRunsTheToolOnceThroughAFallbackAndTheAnswerStreams() {
    ollamaServer.replies(LoopbackServer.status(503, "{\"error\":\"" + CANARY + "\"}"));
    String toolCall = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
        + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,"
        + "\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"stock\","
        + "\"arguments\":\"{\\\"product\\\":\\\"bolts\\\"}\"}}]},\"finish_reason\":null}]}\n\n"
        + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
        + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
        + "data: [DONE]\n\n";
    openAiServer.replies(openAiStream(List.of(toolCall), Duration.ZERO, StreamEnd.COMPLETE),
        openAiStream(plus(openAiLines("7 ", "in stock"), LoopbackServer.openAiDone()), Duration.ZERO,
            StreamEnd.COMPLETE));
    Inventory inventory = new Inventory();

    List<String> content = ChatClient.create(ollamaThenOpenAi(ollamaServer.baseUrl(), policy()))
        .prompt().user("How many bolts?").tools(inventory).stream().content().collectList().block(WAIT);

    assertThat(String.join("", content)).isEqualTo("7 in stock");
    assertThat(inventory.runs).as("the requested tool ran once").hasValue(1);
    assertThat(openAiServer.requests()).hasSize(2);
    assertThat(ollamaServer.requests()).as("each model request fell back once").hasSize(2);
  }

  @Test
  void noProviderTextReachesTheErrorTheRecordsOrTheResult() {
    ollamaServer.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.status(502, "{\"error\":{\"message\":\"" + CANARY + "\"}}"));

    Streamed streamed = consume(ollamaThenOpenAi(ollamaServer.baseUrl(), policy()).stream(new Prompt("hi")));

    assertThat(streamed.error()).isInstanceOf(ExecutionFailedException.class);
    assertThat(streamed.error().getMessage()).doesNotContain(CANARY);
    assertThat(streamed.error().getCause()).isNull();
    assertThat(records.toString()).doesNotContain(CANARY);
    assertThat(results.toString()).doesNotContain(CANARY);
    assertThat(((ExecutionFailedException) streamed.error()).outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
  }
}
