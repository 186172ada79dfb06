package io.zeocore.llm;

import static io.zeocore.llm.LoopbackServer.ollamaLines;
import static io.zeocore.llm.LoopbackServer.openAiLines;
import static io.zeocore.llm.LoopbackServer.plus;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionFailedException;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.StreamEvidence;
import io.zeocore.execution.StreamExecution;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.llm.LoopbackServer.StreamEnd;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ZeoCore's own Ollama (NDJSON) and OpenAI-compatible (server-sent events) clients streaming through
 * {@link ResilientRunner#runStream}, against loopback servers that count requests and notice closed connections.
 */
class StreamedChatTest {

  private static final String CANARY = "CANARYstreamedProviderText8a2d";
  private static final List<ChatMessage> ASK = List.of(ChatMessage.user("Summarize the ticket."));

  @RegisterExtension
  final LoopbackServer ollamaServer = LoopbackServer.forEachTest();
  @RegisterExtension
  final LoopbackServer openAiServer = LoopbackServer.forEachTest();

  private final ResilientRunner runner = ResilientRunner.create();

  private static OllamaClient ollama(URI baseUrl) {
    return OllamaClient.builder().baseUrl(baseUrl).model("llama-m").build();
  }

  private OpenAiClient openAi() {
    return OpenAiClient.builder().baseUrl(openAiServer.baseUrl()).apiKey("sk-test").model("gpt-m").build();
  }

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder().name("stream").totalTimeout(Duration.ofSeconds(60))
        .attemptTimeout(Duration.ofSeconds(20)).attemptTargets(plan);
  }

  @SafeVarargs
  private static Map<String, StreamExecutionTarget<String>> plan(StreamExecutionTarget<String>... targets) {
    Map<String, StreamExecutionTarget<String>> map = new LinkedHashMap<>();
    for (StreamExecutionTarget<String> target : targets) {
      map.put(target.targetId(), target);
    }
    return map;
  }

  private StreamExecutionTarget<String> target(String id, LlmClient client) {
    return LlmTargets.chatStreamTarget(id, client, ASK, LlmOptions.defaults());
  }

  /** What a subscriber that asks for everything heard. */
  private record Heard(List<String> chunks, Throwable error, ResilientExecutionResult<StreamEvidence> result) {}

  private static Heard consume(StreamExecution<String> run) throws Exception {
    List<String> chunks = new CopyOnWriteArrayList<>();
    Throwable[] error = new Throwable[1];
    CountDownLatch ended = new CountDownLatch(1);
    run.subscribe(new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(String chunk) {
        chunks.add(chunk);
      }

      @Override
      public void onError(Throwable thrown) {
        error[0] = thrown;
        ended.countDown();
      }

      @Override
      public void onComplete() {
        ended.countDown();
      }
    });
    assertThat(ended.await(60, TimeUnit.SECONDS)).as("the stream ended").isTrue();
    return new Heard(chunks, error[0], run.result().get(60, TimeUnit.SECONDS));
  }

  @Test
  void anOllamaStreamIsDeliveredDeltaByDeltaWithItsReportedUsage() throws Exception {
    ollamaServer.replies(ollamaServer.streamed("application/x-ndjson",
        plus(ollamaLines("Hel", "lo", ""), LoopbackServer.ollamaDone()), Duration.ofMillis(5), StreamEnd.COMPLETE));

    Heard heard = consume(runner.runStream(policy("ollama").build(), plan(target("ollama",
        ollama(ollamaServer.baseUrl())))));

    assertThat(heard.error()).isNull();
    assertThat(heard.chunks()).containsExactly("Hel", "lo");
    AttemptRecord record = heard.result().attempts().get(0);
    assertThat(record.stream().chunks()).isEqualTo(2);
    assertThat(record.usage().provider()).isEqualTo("ollama");
    assertThat(record.usage().inputTokens()).isEqualTo(3L);
    assertThat(record.usage().outputTokens()).isEqualTo(5L);
    assertThat(ollamaServer.onlyRequest().json().path("stream").asBoolean()).isTrue();
  }

  @Test
  void a500FromOllamaBeforeTheFirstChunkFallsBackToOpenAi() throws Exception {
    ollamaServer.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(openAiServer.streamed("text/event-stream",
        plus(openAiLines("from ", "openai"), LoopbackServer.openAiDone()), Duration.ZERO, StreamEnd.COMPLETE));

    Heard heard = consume(runner.runStream(policy("ollama", "openai").build(),
        plan(target("ollama", ollama(ollamaServer.baseUrl())), target("openai", openAi()))));

    assertThat(heard.chunks()).containsExactly("from ", "openai");
    ResilientExecutionResult<StreamEvidence> result = heard.result();
    assertThat(result.selectedTargetId()).isEqualTo("openai");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts().get(1).usage().outputTokens()).isEqualTo(5L);
    assertThat(openAiServer.onlyRequest().json().path("stream_options").path("include_usage").asBoolean()).isTrue();
    assertThat(result.toString()).doesNotContain(CANARY);
  }

  @Test
  void aRefusedConnectionFallsBackWithNothingDispatched() throws Exception {
    openAiServer.replies(openAiServer.streamed("text/event-stream",
        plus(openAiLines("ok"), LoopbackServer.openAiDone()), Duration.ZERO, StreamEnd.COMPLETE));

    Heard heard = consume(runner.runStream(policy("ollama", "openai").build(),
        plan(target("ollama", ollama(LoopbackServer.refusedBaseUrl())), target("openai", openAi()))));

    assertThat(heard.chunks()).containsExactly("ok");
    AttemptRecord refused = heard.result().attempts().get(0);
    assertThat(refused.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(refused.dispatchStarted()).isFalse();
  }

  @Test
  void aStallBeforeTheFirstChunkHitsTheFirstChunkTimeoutAndFallsBack() throws Exception {
    openAiServer.replies(openAiServer.streamed("text/event-stream", List.of(), Duration.ZERO, StreamEnd.HANG));
    ollamaServer.replies(ollamaServer.streamed("application/x-ndjson",
        plus(ollamaLines("fine"), LoopbackServer.ollamaDone()), Duration.ZERO, StreamEnd.COMPLETE));

    Heard heard = consume(runner.runStream(
        policy("openai", "ollama").firstChunkTimeout(Duration.ofMillis(600)).build(),
        plan(target("openai", openAi()), target("ollama", ollama(ollamaServer.baseUrl())))));

    assertThat(heard.chunks()).containsExactly("fine");
    AttemptRecord stalled = heard.result().attempts().get(0);
    assertThat(stalled.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(stalled.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(590)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aCutAfterThreeChunksEndsInterruptedAndTheFallbackReceivesNoRequest() throws Exception {
    ollamaServer.replies(ollamaServer.streamed("application/x-ndjson", ollamaLines("one ", "two ", "three "),
        Duration.ofMillis(10), StreamEnd.CUT));
    openAiServer.replies(LoopbackServer.status(500, ""));

    Heard heard = consume(runner.runStream(policy("ollama", "openai").build(),
        plan(target("ollama", ollama(ollamaServer.baseUrl())), target("openai", openAi()))));

    assertThat(heard.chunks()).containsExactly("one ", "two ", "three ");
    assertThat(heard.error()).isInstanceOf(ExecutionFailedException.class);
    ResilientExecutionResult<StreamEvidence> result = heard.result();
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts()).singleElement()
        .satisfies(record -> assertThat(record.stream().chunks()).isEqualTo(3));
    assertThat(ollamaServer.requests()).hasSize(1);
    assertThat(openAiServer.requests()).as("no second request after partial output").isEmpty();
  }

  @Test
  void anOpenAiStreamCutBeforeDoneIsInterruptedToo() throws Exception {
    openAiServer.replies(openAiServer.streamed("text/event-stream", openAiLines("a", "b", "c"), Duration.ZERO,
        StreamEnd.COMPLETE)); // a proper end of body, but no [DONE]

    Heard heard = consume(runner.runStream(policy("openai").build(), plan(target("openai", openAi()))));

    assertThat(heard.chunks()).containsExactly("a", "b", "c");
    assertThat(heard.result().machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
  }

  @Test
  void anIdleStallMidStreamEndsInterruptedAtTheIdleTimeout() throws Exception {
    openAiServer.replies(openAiServer.streamed("text/event-stream", openAiLines("first ", "second "), Duration.ZERO,
        StreamEnd.HANG));

    Heard heard = consume(runner.runStream(policy("openai", "ollama").chunkIdleTimeout(Duration.ofMillis(600)).build(),
        plan(target("openai", openAi()), target("ollama", ollama(ollamaServer.baseUrl())))));

    assertThat(heard.chunks()).containsExactly("first ", "second ");
    assertThat(heard.result().machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(heard.result().failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(ollamaServer.requests()).isEmpty();
  }

  @Test
  void cancellingMidStreamClosesTheServersConnection() throws Exception {
    List<String> endless = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      endless.add(LoopbackServer.ollamaChunk("tok" + i + " "));
    }
    ollamaServer.replies(ollamaServer.streamed("application/x-ndjson", endless, Duration.ofMillis(40),
        StreamEnd.COMPLETE));
    StreamExecution<String> run = runner.runStream(policy("ollama").build(),
        plan(target("ollama", ollama(ollamaServer.baseUrl()))));
    AtomicInteger seen = new AtomicInteger();
    Flow.Subscription[] held = new Flow.Subscription[1];
    run.subscribe(new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        held[0] = subscription;
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(String chunk) {
        if (seen.incrementAndGet() == 3) {
          held[0].cancel();
        }
      }

      @Override
      public void onError(Throwable thrown) {}

      @Override
      public void onComplete() {}
    });

    ResilientExecutionResult<StreamEvidence> result = run.result().get(60, TimeUnit.SECONDS);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.attempts().get(0).stream().chunks()).isEqualTo(3);
    assertThat(ollamaServer.clientClosed().await(10, TimeUnit.SECONDS)).as("the server saw the connection close")
        .isTrue();
  }

  @Test
  void noProviderTextOfAStreamReachesErrorsRecordsResultsOrLogs() throws Exception {
    java.io.ByteArrayOutputStream logs = new java.io.ByteArrayOutputStream();
    java.io.PrintStream originalErr = System.err;
    java.io.PrintStream originalOut = System.out;
    java.io.PrintStream capture = new java.io.PrintStream(logs, true, java.nio.charset.StandardCharsets.UTF_8);
    StringBuilder evidence = new StringBuilder();
    System.setErr(capture);
    System.setOut(capture);
    try {
      List<LoopbackServer.Reply> replies = List.of(
          LoopbackServer.status(429, "{\"error\":\"" + CANARY + "\"}", Map.of("Retry-After", CANARY)),
          ollamaServer.streamed("application/x-ndjson", List.of(LoopbackServer.ollamaChunk(CANARY),
              "{\"error\":\"" + CANARY + "\"}\n"), Duration.ZERO, StreamEnd.COMPLETE),
          ollamaServer.streamed("application/x-ndjson", List.of(CANARY + " is not JSON\n"), Duration.ZERO,
              StreamEnd.COMPLETE),
          ollamaServer.streamed("application/x-ndjson", List.of("{\"message\":{\"content\":{\"x\":\"" + CANARY
              + "\"}}}\n"), Duration.ZERO, StreamEnd.COMPLETE));
      for (LoopbackServer.Reply reply : replies) {
        ollamaServer.replies(reply);
        Heard heard = consume(runner.runStream(policy("ollama").build(),
            plan(target("ollama", ollama(ollamaServer.baseUrl())))));
        assertThat(heard.error()).isInstanceOf(ExecutionFailedException.class);
        java.io.StringWriter trace = new java.io.StringWriter();
        heard.error().printStackTrace(new java.io.PrintWriter(trace));
        evidence.append(trace).append(heard.result()).append(heard.result().attempts());
      }
    } finally {
      System.setErr(originalErr);
      System.setOut(originalOut);
    }
    assertThat(evidence.toString()).contains("ZEO_EXEC_").doesNotContain(CANARY);
    assertThat(logs.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain(CANARY);
  }

  @Test
  void aStreamedRequestIsSentOncePerSubscriptionAndANonPositiveRequestEndsIt() throws Exception {
    ollamaServer.replies(ollamaServer.streamed("application/x-ndjson",
        plus(ollamaLines("a"), LoopbackServer.ollamaDone()), Duration.ZERO, StreamEnd.COMPLETE));
    Flow.Publisher<String> stream = ollama(ollamaServer.baseUrl()).chatStream(ASK, LlmOptions.defaults(), usage -> { });
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    CountDownLatch ended = new CountDownLatch(2);
    Flow.Subscriber<String> askingForNothing = new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(0);
      }

      @Override
      public void onNext(String item) {}

      @Override
      public void onError(Throwable thrown) {
        errors.add(thrown);
        ended.countDown();
      }

      @Override
      public void onComplete() {
        ended.countDown();
      }
    };
    stream.subscribe(askingForNothing);
    stream.subscribe(askingForNothing);

    assertThat(ended.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(errors).hasSize(2).anySatisfy(e -> assertThat(e).isInstanceOf(IllegalArgumentException.class))
        .anySatisfy(e -> assertThat(e).isInstanceOf(IllegalStateException.class));
  }

  @Test
  void aThousandConcurrentStreamsNeedNoThreadEach() throws Exception {
    int streams = 1000;
    ollamaServer.replies(ollamaServer.streamed("application/x-ndjson",
        plus(ollamaLines("a", "b", "c"), LoopbackServer.ollamaDone()), Duration.ofMillis(300), StreamEnd.COMPLETE));
    OllamaClient client = ollama(ollamaServer.baseUrl());
    ExecutionPolicy policy = policy("ollama").totalTimeout(Duration.ofMinutes(3))
        .attemptTimeout(Duration.ofMinutes(2)).build();
    int before = clientThreads();
    AtomicInteger peak = new AtomicInteger(before);
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler = new Thread(() -> {
      while (sampling.get()) {
        peak.accumulateAndGet(clientThreads(), Math::max);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.start();
    List<StreamExecution<String>> runs = new ArrayList<>();
    AtomicInteger chunks = new AtomicInteger();
    for (int i = 0; i < streams; i++) {
      StreamExecution<String> run = runner.runStream(policy, plan(target("ollama", client)));
      run.subscribe(new Flow.Subscriber<>() {
        @Override
        public void onSubscribe(Flow.Subscription subscription) {
          subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String chunk) {
          chunks.incrementAndGet();
        }

        @Override
        public void onError(Throwable thrown) {}

        @Override
        public void onComplete() {}
      });
      runs.add(run);
    }
    int succeeded = 0;
    for (StreamExecution<String> run : runs) {
      if (run.result().get(3, TimeUnit.MINUTES).succeeded()) {
        succeeded++;
      }
    }
    sampling.set(false);
    sampler.join();

    assertThat(succeeded).isEqualTo(streams);
    assertThat(chunks).hasValue(3 * streams);
    // the client's own threads: the HTTP client's selector and a few workers, the runner's scheduler; never one each
    assertThat(peak.get() - before).as("client-side threads added at the peak").isLessThan(100);
  }

  /** Live threads that are not the loopback servers' (nor this test's sampler, counted once). */
  private static int clientThreads() {
    int count = 0;
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      String name = thread.getName();
      if (!name.startsWith(LoopbackServer.THREAD_PREFIX) && !name.startsWith("HTTP-Dispatcher")) {
        count++;
      }
    }
    return count;
  }
}
