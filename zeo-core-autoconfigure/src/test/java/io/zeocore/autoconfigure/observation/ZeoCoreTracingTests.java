package io.zeocore.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/** With the Brave bridge, a run is one span and each attempt a child span of it; no provider text in any tag. */
class ZeoCoreTracingTests {

  private static final String CANARY = "sk-CANARY-provider-text-0000";

  private final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

  private final Tracing tracing = Tracing.newBuilder()
      .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build())
      .addSpanHandler(new SpanHandler() {
        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
          spans.add(span);
          return true;
        }
      })
      .build();

  @AfterEach
  void close() {
    tracing.close();
  }

  @Test
  void attemptSpansAreChildrenOfTheRunSpan() {
    BraveTracer tracer = new BraveTracer(tracing.tracer(),
        new BraveCurrentTraceContext(tracing.currentTraceContext()), new BraveBaggageManager());
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    ResilientRunner runner = ResilientRunner.builder().listener(new ObservingAttemptListener(registry)).build();
    ExecutionPolicy policy = ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(5))
        .attemptTimeout(Duration.ofSeconds(1)).attemptTargets("ollama-local", "openai-api").build();

    var result = runner.runSync(policy, Map.of(
        "ollama-local", SyncExecutionTarget.of("ollama-local", String.class, context -> {
          throw new AttemptError(FailureKind.RATE_LIMIT, true, null, new IllegalStateException(CANARY));
        }),
        "openai-api", SyncExecutionTarget.of("openai-api", String.class, context -> CANARY)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(spans).hasSize(3);
    MutableSpan run = spans.stream().filter(span -> "zeocore summarize".equals(span.name())).findFirst().orElseThrow();
    List<MutableSpan> attempts = spans.stream().filter(span -> span != run).toList();
    assertThat(attempts).extracting(MutableSpan::name)
        .containsExactly("zeocore attempt ollama-local", "zeocore attempt openai-api");
    assertThat(attempts).allSatisfy(attempt -> {
      assertThat(attempt.parentId()).isEqualTo(run.id());
      assertThat(attempt.traceId()).isEqualTo(run.traceId());
    });
    assertThat(run.tags()).containsEntry("outcome", "succeeded").containsEntry("target", "openai-api");
    assertThat(attempts.get(0).tags()).containsEntry("failure.kind", "rate_limit")
        .containsEntry("dispatch.started", "true");
    assertThat(spans).allSatisfy(span -> {
      assertThat(span.tags().toString()).doesNotContain("CANARY");
      assertThat(span.error()).isNull();
    });
  }

  @Test
  void theHttpCallsATargetMakesAreChildSpansOfItsAttemptSyncAndAsync() throws Exception {
    BraveTracer tracer = new BraveTracer(tracing.tracer(),
        new BraveCurrentTraceContext(tracing.currentTraceContext()), new BraveBaggageManager());
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      RestClient client = RestClient.builder().observationRegistry(registry)
          .baseUrl("http://127.0.0.1:" + server.getAddress().getPort()).build();
      ResilientRunner runner = ResilientRunner.builder().scheduler(scheduler)
          .listener(new ObservingAttemptListener(registry)).build();
      ExecutionPolicy policy = ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(5))
          .attemptTimeout(Duration.ofMillis(500)).attemptTargets("ollama-local", "openai-api").build();

      runner.runSync(policy, Map.of(
          "ollama-local", SyncExecutionTarget.of("ollama-local", String.class, context -> {
            client.get().uri("/ollama").retrieve().toBodilessEntity();
            throw new AttemptError(FailureKind.TRANSIENT);
          }),
          "openai-api", SyncExecutionTarget.of("openai-api", String.class, context -> {
            client.get().uri("/openai").retrieve().toBodilessEntity();
            return "ok";
          })));
      // async: the first attempt calls out, then never answers (a timeout); the fallback calls out and answers
      runner.runAsync(policy, Map.of(
          "ollama-local", AsyncExecutionTarget.of("ollama-local", String.class, context -> {
            client.get().uri("/ollama").retrieve().toBodilessEntity();
            return new CompletableFuture<>();
          }),
          "openai-api", AsyncExecutionTarget.of("openai-api", String.class, context -> {
            client.get().uri("/openai").retrieve().toBodilessEntity();
            return CompletableFuture.completedFuture("ok");
          }))).join();
    } finally {
      scheduler.shutdownNow();
      server.stop(0);
    }

    List<MutableSpan> attempts = spans.stream().filter(span -> span.name().startsWith("zeocore attempt")).toList();
    List<MutableSpan> clients = spans.stream().filter(span -> span.name().startsWith("http")).toList();
    assertThat(attempts).hasSize(4);
    assertThat(clients).hasSize(4);
    for (MutableSpan attempt : attempts) {
      assertThat(clients).filteredOn(client -> attempt.id().equals(client.parentId()))
          .as("client spans under %s", attempt.name()).singleElement()
          .satisfies(client -> assertThat(client.traceId()).isEqualTo(attempt.traceId()));
    }
    assertThat(attempts.stream().filter(span -> "timeout".equals(span.tags().get("failure.kind")))).hasSize(1);
  }
}
