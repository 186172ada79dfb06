package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ZeoCoreExecutions;
import static io.zeocore.autoconfigure.execution.PolicyFailureAnalyses.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zeocore.autoconfigure.metrics.ZeoCoreExecutionMetrics;
import io.zeocore.autoconfigure.metrics.ZeoCoreMetricsAutoConfiguration;
import io.zeocore.execution.DeadlineMode;
import io.zeocore.execution.ExceptionClassifier;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureClassification;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The user's own code as targets: YAML failure kinds, a classifier bean, registered targets, observable runs. */
class OwnTargetsAutoConfigurationTests {

  private static final String P = "zeocore.execution.policies.";
  private static final String C = "zeocore.execution.configs.";
  private static final String CANARY = "canary-3be0-provider-said-secret-token";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class))
      .withPropertyValues(C + "default.total-timeout=10s", C + "default.attempt-timeout=5s");

  private static final SyncExecutionTarget<String> BROKEN = SyncExecutionTarget.of("broken", String.class, c -> {
    throw new IllegalStateException(CANARY);
  });
  private static final SyncExecutionTarget<String> SPARE = SyncExecutionTarget.of("spare", String.class, c -> "spare");

  private static ResilientExecutionResult<String> runBrokenThenSpare(ZeoCoreExecutions executions) {
    return executions.run("p", Map.of("broken", BROKEN, "spare", SPARE));
  }

  @Test
  void failureKindsFromYamlChangeTheOutcome() {
    contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=broken,spare").run(context ->
        assertThat(runBrokenThenSpare(context.getBean(ZeoCoreExecutions.class)).outcome())
            .isEqualTo(ExecutionOutcome.FAILED_SAFE));
    contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=broken,spare",
        P + "p.failure-kinds.java.lang.IllegalStateException=transient").run(context -> {
          ResilientExecutionResult<String> result = runBrokenThenSpare(context.getBean(ZeoCoreExecutions.class));
          assertThat(result.value()).isEqualTo("spare");
          assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
        });
  }

  @Test
  void failureKindsMergeAlongTheConfigChainAndTheNearerEntryWins() {
    contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
        C + "default.failure-kinds.java.io.IOException=transient",
        C + "default.failure-kinds.java.lang.IllegalStateException=rate-limit",
        P + "p.failure-kinds.java.lang.IllegalStateException=timeout").run(context ->
            assertThat(context.getBean(ExecutionPolicies.class).get("p").failureKinds()).isEqualTo(Map.of(
                IOException.class, FailureKind.TRANSIENT, IllegalStateException.class, FailureKind.TIMEOUT)));
  }

  @Test
  void unknownExceptionClassStopsStartUpNamingTheProperty() {
    assertFailure(contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
            P + "p.failure-kinds.com.example.NoSuchException=transient"),
        "Property: zeocore.execution.policies.p.failure-kinds.com.example.NoSuchException",
        "no class named 'com.example.NoSuchException'");
  }

  @Test
  void classThatIsNotAnExceptionStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
        P + "p.failure-kinds.java.lang.String=transient"), "'java.lang.String' is not an exception class");
  }

  @Test
  void unknownOrReservedKindStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
        P + "p.failure-kinds.java.io.IOException=flaky"), "'flaky' is not a failure kind", "rate-limit");
    assertFailure(contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
        P + "p.failure-kinds.java.io.IOException=cancelled"), "cancelled is reserved");
  }

  @Test
  void deadlineIsBoundAndAnUnknownOneStopsStartUp() {
    contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
        P + "p.deadline=enforced").run(context ->
        assertThat(context.getBean(ExecutionPolicies.class).get("p").deadline()).isEqualTo(DeadlineMode.ENFORCED));
    assertFailure(contextRunner.withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=a",
            P + "p.deadline=hard"),
        "'hard' is not a deadline mode", "cooperative, enforced");
  }

  @Test
  void exceptionClassifierBeanReplacesTheDefault() {
    contextRunner.withUserConfiguration(RateLimitingClassifier.class)
        .withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=broken,spare").run(context -> {
          ResilientExecutionResult<String> result = runBrokenThenSpare(context.getBean(ZeoCoreExecutions.class));
          assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
          assertThat(context.getBean(ResilientRunner.class).exceptionClassifier())
              .isSameAs(context.getBean(ExceptionClassifier.class));
        });
  }

  @Test
  void runnerCustomizersShapeTheRunnerInOrder() {
    List<Duration> slept = new CopyOnWriteArrayList<>();
    List<String> order = new CopyOnWriteArrayList<>();
    contextRunner
        .withBean("second", ResilientRunnerCustomizer.class, () -> new OrderedRunnerCustomizer(2,
            builder -> order.add("second")))
        .withBean("first", ResilientRunnerCustomizer.class, () -> new OrderedRunnerCustomizer(1, builder -> {
          order.add("first");
          builder.sleeper(delay -> {
            slept.add(delay);
            Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
          });
        }))
        .withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=refused,spare", P + "p.backoff=50ms")
        .run(context -> {
          SyncExecutionTarget<String> refused = SyncExecutionTarget.of("refused", String.class, c -> {
            throw new java.net.ConnectException("connection refused");
          });
          ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
              .run("p", Map.of("refused", refused, "spare", SPARE));
          assertThat(result.value()).isEqualTo("spare");
          assertThat(order).containsExactly("first", "second");
          assertThat(slept).isNotEmpty();
        });
  }

  private record OrderedRunnerCustomizer(int order, ResilientRunnerCustomizer delegate)
      implements ResilientRunnerCustomizer, org.springframework.core.Ordered {

    @Override
    public void customize(ResilientRunner.Builder builder) {
      delegate.customize(builder);
    }

    @Override
    public int getOrder() {
      return order;
    }
  }

  /** Runs policy {@code summarize} on "hello" in a context of the registered targets, planned {@code plan}. */
  private ResilientExecutionResult<String> summarizeWithRegisteredTargets(String plan) {
    AtomicReference<ResilientExecutionResult<String>> result = new AtomicReference<>();
    contextRunner.withUserConfiguration(RegisteredTargets.class)
        .withPropertyValues(P + "summarize.attempt-targets=" + plan).run(context -> result.set(
            context.getBean(ZeoCoreExecutions.class).run("summarize", "hello", String.class)));
    return result.get();
  }

  @Test
  void registeredTargetsRunWithNoMap() {
    ResilientExecutionResult<String> result = summarizeWithRegisteredTargets("refusing,shouting");
    assertThat(result.value()).isEqualTo("HELLO");
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
  }

  @Test
  void reorderingTheRegisteredPlanIsAConfigurationChange() {
    ResilientExecutionResult<String> result = summarizeWithRegisteredTargets("shouting,refusing");
    assertThat(result.attempts()).hasSize(1);
    assertThat(result.selectedTargetId()).isEqualTo("shouting");
  }

  @Test
  void unknownRegisteredTargetIdStopsStartUpNamingTheProperty() {
    assertFailure(contextRunner.withUserConfiguration(RegisteredTargets.class)
            .withPropertyValues(P + "summarize.attempt-targets=shouting,whispering"),
        "Property: zeocore.execution.policies.summarize.attempt-targets",
        "no registered target has the id 'whispering'", "registered: refusing, shouting");
  }

  @Test
  void policiesPlanningNoRegisteredIdKeepTheMapForm() {
    contextRunner.withUserConfiguration(RegisteredTargets.class)
        .withPropertyValues(P + "p.targets=call-time", P + "p.attempt-targets=broken,spare",
            P + "p.failure-kinds.java.lang.IllegalStateException=transient").run(context -> {
              assertThat(context).hasNotFailed();
              assertThat(runBrokenThenSpare(context.getBean(ZeoCoreExecutions.class)).value()).isEqualTo("spare");
              ResilientExecutionResult<String> refused = context.getBean(ZeoCoreExecutions.class)
                  .run("p", "hello", String.class);
              assertThat(refused.machineCode()).isEqualTo(MachineCodes.TARGET_UNAVAILABLE);
              assertThat(refused.refusedTargetId()).isEqualTo("broken");
            });
  }

  @Test
  void runsOnTheInjectedRunnerPublishEventsAndFeedMetrics() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
            ZeoCoreMetricsAutoConfiguration.class))
        .withUserConfiguration(RecordingListener.class)
        .withBean(SimpleMeterRegistry.class)
        .withPropertyValues(C + "default.total-timeout=10s", C + "default.attempt-timeout=5s",
            P + "p.targets=call-time", P + "p.attempt-targets=broken,spare",
            P + "p.failure-kinds.java.lang.IllegalStateException=transient")
        .run(context -> {
          ResilientRunner runner = context.getBean(ResilientRunner.class);
          ResilientExecutionResult<String> result = runner.runSync(context.getBean(ExecutionPolicies.class).get("p"),
              Map.of("broken", BROKEN, "spare", SPARE));

          assertThat(result.value()).isEqualTo("spare");
          List<Object> events = context.getBean(RecordingListener.class).events;
          assertThat(events).hasSize(3);
          assertThat(events.get(0)).isInstanceOfSatisfying(AttemptRecordedEvent.class,
              event -> assertThat(event.policyName()).isEqualTo("p"));
          assertThat(events.get(2)).isInstanceOfSatisfying(ExecutionCompletedEvent.class, event -> {
            assertThat(event.policyName()).isEqualTo("p");
            assertThat(event.executionId()).isEqualTo(((AttemptRecordedEvent) events.get(0)).executionId());
          });
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          assertThat(meters.get(ZeoCoreExecutionMetrics.ATTEMPTS).tag("policy", "p").tag("target", "broken")
              .tag("failure.kind", "transient").counter().count()).isEqualTo(1.0);
          assertThat(meters.get(ZeoCoreExecutionMetrics.DURATION).tag("policy", "p").timer().count()).isEqualTo(1);
          assertThat(events.toString()).doesNotContain(CANARY);
        });
  }


  @Configuration(proxyBeanMethods = false)
  static class RateLimitingClassifier {

    @Bean
    ExceptionClassifier rateLimiting() {
      return thrown -> thrown instanceof IllegalStateException ? FailureClassification.of(FailureKind.RATE_LIMIT)
          : null;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class RegisteredTargets {

    @Bean
    NamedTarget<String, String> refusing() {
      return NamedTarget.of("refusing", String.class, String.class, (text, context) -> {
        throw new ConnectException(CANARY);
      });
    }

    @Bean
    NamedTarget<String, String> shouting() {
      return NamedTarget.of("shouting", String.class, String.class, (text, context) -> text.toUpperCase());
    }
  }
}
