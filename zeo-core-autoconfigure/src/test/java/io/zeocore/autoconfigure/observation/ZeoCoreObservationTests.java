package io.zeocore.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.zeocore.autoconfigure.execution.DrainingSubscriber;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.StreamExecution;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.execution.SyncExecutionTarget;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ZeoCoreObservationTests {

  private static final String CANARY = "sk-CANARY-provider-text-0000";

  private final TestObservationRegistry registry = TestObservationRegistry.create();

  private final Queue<Observation.Context> started = StartedObservations.recordedBy(registry);

  private final ResilientRunner runner = ResilientRunner.builder()
      .listener(new ObservingAttemptListener(registry))
      .build();

  @Test
  void aSyncRunWithAFallbackIsOneRunObservationWithAChildPerAttempt() {
    ExecutionPolicy policy = ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(5))
        .attemptTimeout(Duration.ofSeconds(1)).attemptTargets("ollama-local", "openai-api").build();
    SyncExecutionTarget<String> failing = SyncExecutionTarget.of("ollama-local", String.class, context -> {
      throw new AttemptError(FailureKind.TRANSIENT, false, null, new IllegalStateException(CANARY));
    });
    SyncExecutionTarget<String> fallback = SyncExecutionTarget.of("openai-api", String.class, context -> CANARY);

    ResilientExecutionResult<String> result = runner.runSync(policy,
        Map.of("ollama-local", failing, "openai-api", fallback));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    TestObservationRegistryAssert.assertThat(registry)
        .hasNumberOfObservationsWithNameEqualTo(DefaultExecutionObservationConvention.NAME, 1)
        .hasNumberOfObservationsWithNameEqualTo(DefaultAttemptObservationConvention.NAME, 2)
        .hasObservationWithNameEqualTo(DefaultExecutionObservationConvention.NAME).that()
        .hasBeenStarted().hasBeenStopped()
        .hasLowCardinalityKeyValue("policy", "summarize")
        .hasLowCardinalityKeyValue("outcome", "succeeded")
        .hasLowCardinalityKeyValue("failure.kind", "none")
        .hasLowCardinalityKeyValue("target", "openai-api")
        .hasHighCardinalityKeyValueWithKey("execution.id");
    Observation.Context run = contexts(DefaultExecutionObservationConvention.NAME).get(0);
    List<Observation.Context> attempts = contexts(DefaultAttemptObservationConvention.NAME);
    assertThat(attempts).allSatisfy(attempt -> {
      assertThat(attempt.getParentObservation()).isNotNull();
      assertThat(attempt.getParentObservation().getContextView()).isSameAs(run);
      assertThat(attempt.getHighCardinalityKeyValue("execution.id").getValue())
          .isEqualTo(run.getHighCardinalityKeyValue("execution.id").getValue());
    });
    assertThat(attempts.get(0).getLowCardinalityKeyValue("target").getValue()).isEqualTo("ollama-local");
    assertThat(attempts.get(0).getLowCardinalityKeyValue("attempt").getValue()).isEqualTo("1");
    assertThat(attempts.get(0).getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("failed");
    assertThat(attempts.get(0).getLowCardinalityKeyValue("failure.kind").getValue()).isEqualTo("transient");
    assertThat(attempts.get(0).getLowCardinalityKeyValue("dispatch.started").getValue()).isEqualTo("false");
    assertThat(attempts.get(1).getLowCardinalityKeyValue("target").getValue()).isEqualTo("openai-api");
    assertThat(attempts.get(1).getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("succeeded");
    assertNoCanary();
  }

  @Test
  void aSkippedCoolingTargetIsAnEventOfTheRunNotAnAttemptObservation() {
    List<Observation.Event> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    registry.observationConfig().observationHandler(new io.micrometer.observation.ObservationHandler<>() {
      @Override
      public void onEvent(Observation.Event event, Observation.Context context) {
        events.add(event);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    io.zeocore.execution.TargetHealth health = io.zeocore.execution.TargetHealth.inMemory();
    ResilientRunner cooling = runner.toBuilder().targetHealth(health).build();
    ExecutionPolicy policy = ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(5))
        .attemptTimeout(Duration.ofSeconds(1)).attemptTargets("ollama-local", "openai-api").build();
    SyncExecutionTarget<String> limited = SyncExecutionTarget.of("ollama-local", String.class, context -> {
      throw new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofSeconds(30));
    });
    SyncExecutionTarget<String> fallback = SyncExecutionTarget.of("openai-api", String.class, context -> "ok");
    cooling.runSync(policy, Map.of("ollama-local", limited, "openai-api", fallback));
    started.clear();
    events.clear();

    cooling.runSync(policy, Map.of("ollama-local", limited, "openai-api", fallback));

    assertThat(contexts(DefaultAttemptObservationConvention.NAME)).singleElement()
        .satisfies(attempt -> assertThat(attempt.getLowCardinalityKeyValue("target").getValue())
            .isEqualTo("openai-api"));
    assertThat(events).singleElement().satisfies(event -> {
      assertThat(event.getName()).isEqualTo(ObservingAttemptListener.SKIPPED_EVENT);
      assertThat(event.getContextualName()).isEqualTo("target ollama-local skipped: cooling down");
    });
  }

  @Test
  void anAsyncRunThatTimesOutKeepsItsParentAcrossTheScheduler() {
    ExecutionPolicy policy = ExecutionPolicy.builder().name("slow").totalTimeout(Duration.ofMillis(150))
        .attemptTimeout(Duration.ofMillis(50)).attemptTargets("hanging").build();
    AsyncExecutionTarget<String> hanging = AsyncExecutionTarget.of("hanging", String.class,
        context -> new CompletableFuture<>());
    Observation caller = Observation.start("caller", registry);

    ResilientExecutionResult<String> result;
    try (Observation.Scope scope = caller.openScope()) {
      result = runner.runAsync(policy, Map.of("hanging", hanging)).join();
    }
    caller.stop();

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    TestObservationRegistryAssert.assertThat(registry)
        .hasObservationWithNameEqualTo(DefaultExecutionObservationConvention.NAME).that()
        .hasBeenStopped()
        .hasLowCardinalityKeyValue("outcome", "exhausted")
        .hasLowCardinalityKeyValue("failure.kind", "timeout")
        .hasLowCardinalityKeyValue("target", "none");
    Observation.Context run = contexts(DefaultExecutionObservationConvention.NAME).get(0);
    assertThat(run.getParentObservation().getContextView().getName()).isEqualTo("caller");
    Observation.Context attempt = contexts(DefaultAttemptObservationConvention.NAME).get(0);
    assertThat(attempt.getParentObservation().getContextView()).isSameAs(run);
    assertThat(attempt.getLowCardinalityKeyValue("failure.kind").getValue()).isEqualTo("timeout");
  }

  @Test
  void theAutoConfiguredRunnerIsObservedWhenThereIsAnObservationRegistry() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreObservationAutoConfiguration.class,
            ZeoCoreExecutionAutoConfiguration.class))
        .withBean(ObservationRegistry.class, () -> registry)
        .run(context -> {
          assertThat(context).hasSingleBean(ObservingAttemptListener.class);
          assertThat(context.getBean(ResilientRunner.class).listeners())
              .contains(context.getBean(ObservingAttemptListener.class));
        });
  }

  @Test
  void nothingIsObservedWithoutAnObservationRegistry() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreObservationAutoConfiguration.class,
            ZeoCoreExecutionAutoConfiguration.class))
        .run(context -> assertThat(context).doesNotHaveBean(ObservingAttemptListener.class));
  }

  @Test
  void aUserConventionReplacesTheDefault() {
    ExecutionObservationConvention mine = new DefaultExecutionObservationConvention() {
      @Override
      public String getName() {
        return "my.runs";
      }
    };
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreObservationAutoConfiguration.class,
            ZeoCoreExecutionAutoConfiguration.class))
        .withBean(ObservationRegistry.class, () -> registry)
        .withBean(ExecutionObservationConvention.class, () -> mine)
        .run(context -> {
          ExecutionPolicy policy = ExecutionPolicy.builder().name("p").totalTimeout(Duration.ofSeconds(1))
              .attemptTimeout(Duration.ofSeconds(1)).attemptTargets("t").build();
          context.getBean(ResilientRunner.class).runSync(policy,
              Map.of("t", SyncExecutionTarget.of("t", String.class, c -> "ok")));
          TestObservationRegistryAssert.assertThat(registry).hasObservationWithNameEqualTo("my.runs");
        });
  }

  @Test
  void aStreamedRunsObservationsLastUntilTheStreamEndsAndCarryWhatItDelivered() throws Exception {
    ExecutionPolicy policy = ExecutionPolicy.builder().name("chat").totalTimeout(Duration.ofSeconds(30))
        .attemptTimeout(Duration.ofSeconds(10)).attemptTargets("ollama-local").build();
    Flow.Subscriber<? super String>[] provider = new Flow.Subscriber[1];
    StreamExecutionTarget<String> streaming = StreamExecutionTarget.of("ollama-local", String.class,
        context -> subscriber -> {
          provider[0] = subscriber;
          subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {}
          });
        });
    StreamExecution<String> run = runner.runStream(policy, Map.of("ollama-local", streaming));
    run.subscribe(new DrainingSubscriber<>());
    provider[0].onNext(CANARY);
    provider[0].onNext(CANARY);

    // mid-stream: both observations started, neither stopped
    assertThat(contexts(DefaultExecutionObservationConvention.NAME)).hasSize(1);
    assertThat(contexts(DefaultAttemptObservationConvention.NAME)).hasSize(1);
    TestObservationRegistryAssert.assertThat(registry)
        .hasObservationWithNameEqualTo(DefaultAttemptObservationConvention.NAME).that().isNotStopped();

    provider[0].onComplete();
    assertThat(run.result().get(10, TimeUnit.SECONDS).succeeded()).isTrue();
    TestObservationRegistryAssert.assertThat(registry)
        .hasObservationWithNameEqualTo(DefaultExecutionObservationConvention.NAME).that()
        .hasBeenStopped().hasLowCardinalityKeyValue("outcome", "succeeded");
    TestObservationRegistryAssert.assertThat(registry)
        .hasObservationWithNameEqualTo(DefaultAttemptObservationConvention.NAME).that()
        .hasBeenStopped().hasHighCardinalityKeyValue("stream.chunks", "2")
        .hasHighCardinalityKeyValueWithKey("stream.time_to_first_chunk_ms");
    assertNoCanary();
  }

  private List<Observation.Context> contexts(String name) {
    return started.stream().filter(context -> name.equals(context.getName())).toList();
  }

  private void assertNoCanary() {
    started.forEach(context -> {
      assertThat(context.getAllKeyValues().stream().map(keyValue -> keyValue.getKey() + "=" + keyValue.getValue()))
          .noneMatch(text -> text.contains("CANARY"));
      assertThat(context.getError()).isNull();
    });
  }
}
