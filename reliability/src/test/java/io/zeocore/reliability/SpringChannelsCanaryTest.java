package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;
import tools.jackson.databind.json.JsonMapper;

/**
 * Canaries through the starter: every ZeoCore auto-configuration on the class path, with an observation registry, a
 * meter registry and the actuator endpoint, runs policies whose targets fail with canary messages and answer canary
 * values, and effects whose bodies, provider details and dispatcher exceptions carry canaries. Then every channel the
 * starter adds is searched: Spring events, observations (names, contextual names, every key and value, errors),
 * meters (names and tags), every read operation of every ZeoCore actuator endpoint (as Jackson writes it), every
 * ZeoCore health indicator, and the log file. A failure: a canary found in a channel. (The value a run returns is the
 * caller's, so it is not a channel.)
 */
class SpringChannelsCanaryTest {

  static final String SECTION = "Canaries (secrets in every channel)";
  static final int RUNS = 20;

  @TempDir
  Path temp;

  static String canary(int i) {
    return "SPRINGCANARY" + i + "w4Rk";
  }

  @Test
  void noCanaryReachesEventsObservationsMetersActuatorHealthOrLogs() throws Exception {
    TestObservationRegistry reads = TestObservationRegistry.create();
    Queue<Observation.Context> observed = new ConcurrentLinkedQueue<>();
    reads.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStop(Observation.Context context) {
        observed.add(context);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    World.Authority authority = new World.Authority();
    Events events = new Events();
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(zeoCoreAutoConfigurations()))
        .withBean(ObservationRegistry.class, () -> reads)
        .withBean(MeterRegistry.class, () -> meters)
        .withBean(ExactAuthorizationVerifier.class, () -> authority.verifier)
        .withBean(Events.class, () -> events)
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("store/zeocore.db"),
            "zeocore.execution.policies.canary.attempt-targets=first,second",
            "zeocore.execution.policies.canary.targets=call-time",
            "zeocore.execution.policies.canary.total-timeout=5s",
            "zeocore.execution.policies.canary.attempt-timeout=2s",
            "management.endpoints.web.exposure.include=*", "zeocore.actuator.recent-events=1000")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ZeoCoreExecutions effects = context.getBean(ZeoCoreExecutions.class);
          StringBuilder exceptions = new StringBuilder();
          for (int i = 0; i < RUNS; i++) {
            String canary = canary(i);
            SyncExecutionTarget<String> first = SyncExecutionTarget.of("first", String.class, attempt -> {
              throw new AttemptError(FailureKind.TRANSIENT, true, null, new IllegalStateException("said " + canary));
            });
            SyncExecutionTarget<String> second = SyncExecutionTarget.of("second", String.class,
                attempt -> "answer " + canary);
            effects.run("canary", Map.of("first", first, "second", second));
            AsyncExecutionTarget<String> failing = AsyncExecutionTarget.of("first", String.class, attempt ->
                CompletableFuture.failedFuture(new IllegalStateException("async said " + canary)));
            AsyncExecutionTarget<String> answering = AsyncExecutionTarget.of("second", String.class, attempt ->
                CompletableFuture.completedFuture("async answer " + canary));
            effects.runAsync("canary", Map.of("first", failing, "second", answering)).join();
          }
          JdbcConnectionStore store = World.seed(context.getBean(JdbcConnectionStore.class));
          EffectOrchestrator orchestrator = context.getBean(EffectOrchestrator.class);
          for (int i = 0; i < RUNS; i++) {
            String canary = canary(i);
            byte[] body = ("{\"amount\":" + i + ",\"charge\":\"" + canary + "\"}").getBytes(StandardCharsets.UTF_8);
            int kind = i % 3;
            try {
              orchestrator.execute(World.ORG, World.CONNECTION, World.REVISION, World.REFUND,
                  authority.signer.sign(World.unsigned("spring-" + i, "spring-k-" + i, body)),
                  new EffectId("spring-x-" + i), body, request -> switch (kind) {
                    case 0 -> EffectDispatchResult.confirmed("c".repeat(64));
                    case 1 -> EffectDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.FAILED_SAFE,
                        "declined", "provider body " + canary));
                    default -> throw new IllegalStateException("provider said " + canary);
                  }, request -> {
                    throw new IllegalStateException("reconciler saw " + canary);
                  });
            } catch (RuntimeException e) {
              exceptions.append(CanaryTest.stackTrace(e));
            }
          }

          // the channels really carry what the runs and effects did (else a missing canary would prove nothing)
          assertThat(String.join("\n", events.received)).contains("ExecutionCompletedEvent", "AttemptRecordedEvent",
              "EffectTransitionEvent", "ReceiptRecordedEvent");
          assertThat(observed).extracting(Observation.Context::getName)
              .contains("zeocore.execution", "zeocore.execution.attempt");
          Map<String, String> channels = new LinkedHashMap<>();
          channels.put("Spring events", String.join("\n", events.received));
          channels.put("observations (names, keys, values, errors)", describe(observed));
          channels.put("meters (names and tags)", describeMeters(meters));
          channels.put("actuator endpoints (every read operation, as JSON)", readEndpoints(context));
          channels.put("health indicators", readHealth(context));
          channels.put("exceptions thrown to the caller", exceptions.toString());
          Path log = Path.of(System.getProperty("reliability.log", "target/reliability-log.txt"));
          channels.put("log file (DEBUG and up)", Files.exists(log) ? Files.readString(log) : "");
          assertNoCanary(channels);
        });
  }

  private static Class<?>[] zeoCoreAutoConfigurations() throws ClassNotFoundException {
    List<Class<?>> classes = new ArrayList<>();
    ClassLoader loader = SpringChannelsCanaryTest.class.getClassLoader();
    for (String name : ImportCandidates.load(AutoConfiguration.class, loader)) {
      if (name.startsWith("io.zeocore.")) {
        Class<?> candidate = Class.forName(name, false, loader);
        try {
          // an integration whose library is absent (Spring AI here) is skipped, as its @ConditionalOnClass skips it
          // in an application; read by reflection, the annotation names a class that cannot be loaded
          ConditionalOnClass required = candidate.getAnnotation(ConditionalOnClass.class);
          if (required != null) {
            required.value();
          }
          classes.add(candidate);
        } catch (TypeNotPresentException | LinkageError absentLibrary) {
          // skipped
        }
      }
    }
    assertThat(classes).isNotEmpty();
    return classes.toArray(Class<?>[]::new);
  }

  private static String describe(Queue<Observation.Context> observed) {
    StringBuilder text = new StringBuilder();
    for (Observation.Context context : observed) {
      text.append(context.getName()).append(' ').append(context.getContextualName()).append(' ')
          .append(context.getAllKeyValues()).append(' ').append(context.getError()).append('\n');
    }
    assertThat(observed).isNotEmpty();
    return text.toString();
  }

  private static String describeMeters(MeterRegistry meters) {
    StringBuilder text = new StringBuilder();
    for (Meter meter : meters.getMeters()) {
      text.append(meter.getId()).append('\n');
    }
    assertThat(meters.getMeters()).isNotEmpty();
    return text.toString();
  }

  /** Every {@code @ReadOperation} of every ZeoCore endpoint bean (selectors: the policy and the events), as JSON. */
  private static String readEndpoints(org.springframework.context.ApplicationContext context) throws Exception {
    JsonMapper json = JsonMapper.builder().build();
    StringBuilder text = new StringBuilder();
    int read = 0;
    for (Object endpoint : context.getBeansWithAnnotation(Endpoint.class).values()) {
      if (!endpoint.getClass().getName().startsWith("io.zeocore.")) {
        continue;
      }
      for (Method method : endpoint.getClass().getMethods()) {
        if (method.isAnnotationPresent(ReadOperation.class)) {
          // every selector value that means something: the policy's name and the events view
          for (String selector : method.getParameterCount() == 0 ? List.of("") : List.of("canary", "events")) {
            Object[] arguments = new Object[method.getParameterCount()];
            java.util.Arrays.fill(arguments, selector);
            try {
              text.append(json.writeValueAsString(method.invoke(endpoint, arguments))).append('\n');
            } catch (java.lang.reflect.InvocationTargetException refused) {
              text.append(refused.getCause()).append('\n');
            }
          }
          read++;
        }
      }
    }
    assertThat(read).as("read operations found").isPositive();
    assertThat(text).contains("\"kind\":\"run\"", "\"kind\":\"effect_transition\"");
    return text.toString();
  }

  private static String readHealth(org.springframework.context.ApplicationContext context) {
    StringBuilder text = new StringBuilder();
    context.getBeansOfType(HealthIndicator.class).forEach((name, indicator) -> {
      if (indicator.getClass().getName().startsWith("io.zeocore.")) {
        text.append(name).append(' ').append(indicator.health(true)).append('\n');
      }
    });
    assertThat(text).as("ZeoCore health indicators").isNotEmpty();
    return text.toString();
  }

  private static void assertNoCanary(Map<String, String> channels) {
    Map<String, List<String>> hits = new LinkedHashMap<>();
    for (Map.Entry<String, String> channel : channels.entrySet()) {
      List<String> found = new ArrayList<>();
      for (int i = 0; i < RUNS; i++) {
        if (channel.getValue().contains(canary(i))) {
          found.add(canary(i));
        }
      }
      Figures.record(SECTION, "starter, " + channel.getKey(), RUNS, found.size(),
          "a canary (in a target's exception or answer, a body, a provider detail or a dispatcher exception) found"
              + " in the channel");
      if (!found.isEmpty()) {
        hits.put(channel.getKey(), found);
      }
    }
    assertThat(hits).isEmpty();
  }

  /** Every event the context publishes, as text. */
  static final class Events implements ApplicationListener<ApplicationEvent> {

    final Queue<String> received = new ConcurrentLinkedQueue<>();

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
      Object payload = event instanceof PayloadApplicationEvent<?> wrapped ? wrapped.getPayload() : event;
      received.add(payload.getClass().getName() + " " + payload);
    }
  }
}
