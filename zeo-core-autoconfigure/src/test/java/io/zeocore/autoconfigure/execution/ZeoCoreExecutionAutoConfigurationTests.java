package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ZeoCoreExecutions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.OperationMode;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ZeoCoreExecutionAutoConfigurationTests {

  private static final String P = "zeocore.execution.policies.";
  private static final String C = "zeocore.execution.configs.";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class));

  @Test
  void createsPoliciesRunnerAndExecutionsWithoutAnyProperty() {
    contextRunner.run(context -> {
      assertThat(context).hasSingleBean(ExecutionPolicies.class).hasSingleBean(ResilientRunner.class)
          .hasSingleBean(ZeoCoreExecutions.class);
      assertThat(context.getBean(ExecutionPolicies.class).names()).isEmpty();
    });
  }

  @Test
  void backsOffWhenDisabled() {
    contextRunner.withPropertyValues("zeocore.execution.enabled=false", P + "p.total-timeout=-1s")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ExecutionPolicies.class)
            .doesNotHaveBean(ResilientRunner.class).doesNotHaveBean(ZeoCoreExecutions.class));
  }

  @Test
  void backsOffWhenZeoCoreIsNotOnTheClasspath() {
    contextRunner.withClassLoader(new FilteredClassLoader(ResilientRunner.class))
        .run(context -> assertThat(context).doesNotHaveBean(ExecutionPolicies.class)
            .doesNotHaveBean(ZeoCoreExecutions.class));
  }

  @Test
  void userBeansWin() {
    contextRunner.withUserConfiguration(UserBeans.class).withPropertyValues(P + "ignored.total-timeout=-1s")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(ExecutionPolicies.class)).isSameAs(UserBeans.POLICIES);
          assertThat(context.getBean(ResilientRunner.class)).isSameAs(UserBeans.RUNNER);
          // the application's runner has no publisher: ZeoCoreExecutions runs on a copy that publishes
          assertThat(context.getBean(ZeoCoreExecutions.class).runner().listeners())
              .hasAtLeastOneElementOfType(ExecutionEventPublisher.class);
          assertThat(context.getBean(ZeoCoreExecutions.class).policies().names()).containsExactly("mine");
        });
  }

  @Test
  void bindsEveryPolicyPropertyAndInheritsUnsetOnesFromTheDefaultConfig() {
    contextRunner.withPropertyValues(
        C + "default.total-timeout=120s",
        C + "default.attempt-timeout=90s",
        C + "default.cancellation-poll=250ms",
        P + "summarize.operation-mode=advisory",
        P + "summarize.attempt-targets=ollama-local,openai-api,openai-api",
        P + "summarize.backoff=500ms,1s",
        P + "summarize.jitter-fraction=0.2",
        P + "summarize.retryable-failures=timeout,rate-limit,malformed_response",
        P + "summarize.allow-simulated=true",
        P + "summarize.targets=call-time",
        P + "plain.attempt-targets[0]=only",
        P + "plain.targets=call-time",
        P + "plain.total-timeout=5s")
        .run(context -> {
          ExecutionPolicies policies = context.getBean(ExecutionPolicies.class);
          assertThat(policies.names()).containsExactly("summarize", "plain");
          assertThat(policies.get("summarize")).isEqualTo(ExecutionPolicy.builder()
              .name("summarize")
              .operationMode(OperationMode.ADVISORY)
              .totalTimeout(Duration.ofSeconds(120))
              .attemptTimeout(Duration.ofSeconds(90))
              .attemptTargets("ollama-local", "openai-api", "openai-api")
              .backoff(Duration.ofMillis(500), Duration.ofSeconds(1))
              .jitterFraction(0.2)
              .retryableFailures(FailureKind.TIMEOUT, FailureKind.RATE_LIMIT, FailureKind.MALFORMED_RESPONSE)
              .allowSimulated(true)
              .cancellationPoll(Duration.ofMillis(250))
              .build());
          assertThat(policies.get("plain")).isEqualTo(ExecutionPolicy.builder()
              .name("plain")
              .totalTimeout(Duration.ofSeconds(5))
              .attemptTimeout(Duration.ofSeconds(90))
              .attemptTargets("only")
              .cancellationPoll(Duration.ofMillis(250))
              .build());
        });
  }

  @Test
  void followsBaseConfigChainsAndReplacesListsInsteadOfMergingThem() {
    contextRunner.withPropertyValues(
        C + "default.total-timeout=60s",
        C + "default.attempt-timeout=30s",
        C + "default.retryable-failures=timeout,transient",
        C + "default.targets=call-time",
        C + "slow.base-config=patient",
        C + "slow.attempt-timeout=45s",
        C + "patient.total-timeout=10m",
        C + "patient.backoff=2s",
        P + "batch.base-config=slow",
        P + "batch.attempt-targets=a,b",
        P + "strict.attempt-targets=a,a",
        P + "strict.retryable-failures=")
        .run(context -> {
          ExecutionPolicies policies = context.getBean(ExecutionPolicies.class);
          ExecutionPolicy batch = policies.get("batch");
          assertThat(batch.totalTimeout()).isEqualTo(Duration.ofMinutes(10));
          assertThat(batch.attemptTimeout()).isEqualTo(Duration.ofSeconds(45));
          assertThat(batch.backoff()).containsExactly(Duration.ofSeconds(2));
          assertThat(batch.retryableFailures()).containsExactlyInAnyOrder(FailureKind.TIMEOUT, FailureKind.TRANSIENT);
          ExecutionPolicy strict = policies.get("strict");
          assertThat(strict.totalTimeout()).isEqualTo(Duration.ofSeconds(60));
          assertThat(strict.backoff()).isEmpty();
          assertThat(strict.retryableFailures()).isEmpty();
        });
  }

  @Test
  void negativeTimeoutStopsStartUpNamingThePropertyAndTheRule() {
    assertFailure(contextRunner.withPropertyValues(P + "fast.total-timeout=-1s", P + "fast.attempt-timeout=1s",
            P + "fast.attempt-targets=a"),
        "ZeoCore execution policy 'fast' is invalid", "Property: zeocore.execution.policies.fast.total-timeout",
        "Value: \"-1s\"", "Rule: total-timeout must be greater than 0");
  }

  @Test
  void streamTimeoutsAreBoundPerPolicyInheritedFromConfigsAndDefaultToTheAttemptTimeout() {
    contextRunner.withPropertyValues(
        C + "default.total-timeout=60s",
        C + "default.attempt-timeout=30s",
        C + "default.targets=call-time",
        C + "default.stream.chunk-idle-timeout=5s",
        P + "chat.attempt-targets=a,b",
        P + "chat.stream.first-chunk-timeout=2s",
        P + "plain.attempt-targets=a")
        .run(context -> {
          ExecutionPolicies policies = context.getBean(ExecutionPolicies.class);
          ExecutionPolicy chat = policies.get("chat");
          assertThat(chat.firstChunkTimeout()).isEqualTo(Duration.ofSeconds(2));
          assertThat(chat.effectiveChunkIdleTimeout()).isEqualTo(Duration.ofSeconds(5));
          ExecutionPolicy plain = policies.get("plain");
          assertThat(plain.firstChunkTimeout()).isNull();
          assertThat(plain.effectiveFirstChunkTimeout()).isEqualTo(Duration.ofSeconds(30));
        });
  }

  @Test
  void aZeroStreamTimeoutStopsStartUpNamingTheProperty() {
    assertFailure(contextRunner.withPropertyValues(P + "chat.total-timeout=10s", P + "chat.attempt-timeout=1s",
            P + "chat.attempt-targets=a", P + "chat.stream.chunk-idle-timeout=0s"),
        "ZeoCore execution policy 'chat' is invalid",
        "Property: zeocore.execution.policies.chat.stream.chunk-idle-timeout",
        "Rule: stream.chunk-idle-timeout must be greater than 0");
  }

  @Test
  void backoffLongerThanThePlanStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.total-timeout=10s", P + "p.attempt-timeout=1s",
            P + "p.attempt-targets=a,b", P + "p.backoff=1s,2s"),
        "Property: zeocore.execution.policies.p.backoff", "Value: \"1s,2s\"",
        "Rule: backoff cannot exceed the number of attempt transitions (attempt-targets has 2 entries, so backoff "
            + "may have at most 1)");
  }

  @Test
  void neverRetryableKindMarkedRetryableStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.total-timeout=10s", P + "p.attempt-timeout=1s",
            P + "p.attempt-targets=a,b", P + "p.retryable-failures=timeout,permanent,authentication"),
        "Property: zeocore.execution.policies.p.retryable-failures",
        "Rule: failures can never be retryable: authentication, permanent");
  }

  @Test
  void unknownFailureKindStopsStartUpListingTheKindsThatMayBeRetryable() {
    assertFailure(contextRunner.withPropertyValues(P + "p.total-timeout=10s", P + "p.attempt-timeout=1s",
            P + "p.attempt-targets=a,b", P + "p.retryable-failures=timeout,flaky"),
        "ZeoCore execution policy 'p' is invalid", "Property: zeocore.execution.policies.p.retryable-failures",
        "Value: \"timeout,flaky\"", "Rule: 'flaky' is not a failure kind; retryable-failures accepts timeout, "
            + "transient, rate-limit, malformed-response (authentication, authorization, cancelled, permanent, "
            + "validation can never be retryable)");
  }

  @Test
  void unknownOperationModeStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.operation-mode=read-mostly"),
        "Property: zeocore.execution.policies.p.operation-mode",
        "Rule: 'read-mostly' is not an operation mode; expected one of read-only, advisory (effects go through "
            + "the EffectOrchestrator, not the runner)");
  }

  @Test
  void effectfulPolicyStopsStartUpPointingToTheEffectOrchestrator() {
    assertFailure(contextRunner.withPropertyValues(C + "money.operation-mode=effectful", P + "pay.base-config=money",
            P + "pay.total-timeout=10s", P + "pay.attempt-timeout=1s", P + "pay.attempt-targets=bank"),
        "ZeoCore execution policy 'pay' is invalid", "Property: zeocore.execution.configs.money.operation-mode",
        "Value: \"effectful\"", "ZEO_EXEC_EFFECTFUL_REQUIRES_PERSISTENCE", "EffectOrchestrator (zeocore.connections.*)");
  }

  @Test
  void invalidInheritedValueIsReportedWhereItIsSet() {
    assertFailure(contextRunner.withPropertyValues(C + "default.total-timeout=10s", C + "default.attempt-timeout=0s",
            P + "p.attempt-targets=a"),
        "ZeoCore execution policy 'p' is invalid", "Property: zeocore.execution.configs.default.attempt-timeout",
        "Rule: attempt-timeout must be greater than 0");
  }

  @Test
  void missingRequiredPropertyStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.total-timeout=10s", P + "p.attempt-timeout=1s"),
        "Property: zeocore.execution.policies.p.attempt-targets", "Value: (not set)",
        "Rule: attempt-targets is required: set it on the policy or on a config it inherits from");
  }

  @Test
  void unsafeTargetIdStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.total-timeout=10s", P + "p.attempt-timeout=1s",
            P + "p.attempt-targets=ok,rm -rf"),
        "Property: zeocore.execution.policies.p.attempt-targets",
        "Rule: attempt target IDs must be non-empty safe identifiers (1-128 characters");
  }

  @Test
  void unknownOrCyclicBaseConfigStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(C + "fast.total-timeout=1s", P + "p.base-config=quick"),
        "Property: zeocore.execution.policies.p.base-config", "Value: \"quick\"",
        "Rule: no config named 'quick' under zeocore.execution.configs (configured: fast)");
    assertFailure(contextRunner.withPropertyValues(C + "a.base-config=b", C + "b.base-config=a"),
        "A ZeoCore execution config is invalid", "Property: zeocore.execution.configs.b.base-config",
        "Rule: base-config forms a cycle: a -> b -> a");
  }

  @Test
  void invalidPolicyStopsStartUpEvenUnderLazyInitialization() {
    contextRunner.withBean(LazyInitializationBeanFactoryPostProcessor.class)
        .withPropertyValues(P + "p.total-timeout=-5s", P + "p.attempt-timeout=1s", P + "p.attempt-targets=a")
        .run(context -> assertThat(context).hasFailed());
  }

  @Test
  void publishesEachAttemptAsItEndsThenTheCompletedRunWithOnePolicyNameAndExecutionId() {
    recordingEventsOf("fallback", "5s", "flaky,good")
        .run(context -> {
          RecordingListener listener = context.getBean(RecordingListener.class);
          ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
          SyncExecutionTarget<String> flaky = SyncExecutionTarget.of("flaky", String.class, attempt -> {
            listener.events.add("call flaky");
            throw new AttemptError(FailureKind.TRANSIENT);
          });
          SyncExecutionTarget<String> good = SyncExecutionTarget.of("good", String.class, attempt -> {
            listener.events.add("call good");
            return "canary-value-7f3a";
          });

          ResilientExecutionResult<String> result = executions.run("fallback", List.of(flaky, good));

          assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
          assertThat(result.value()).isEqualTo("canary-value-7f3a");
          assertThat(listener.events).hasSize(5);
          assertThat(listener.events.get(0)).isEqualTo("call flaky");
          AttemptRecordedEvent first = (AttemptRecordedEvent) listener.events.get(1);
          assertThat(listener.events.get(2)).isEqualTo("call good");
          AttemptRecordedEvent second = (AttemptRecordedEvent) listener.events.get(3);
          ExecutionCompletedEvent completed = (ExecutionCompletedEvent) listener.events.get(4);
          assertThat(first.attempt().targetId()).isEqualTo("flaky");
          assertThat(first.attempt().failureKind()).isEqualTo(FailureKind.TRANSIENT);
          assertThat(second.attempt().outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
          assertThat(completed.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
          assertThat(completed.selectedTargetId()).isEqualTo("good");
          assertThat(completed.attempts()).isEqualTo(result.attempts());
          assertThat(List.of(first.policyName(), second.policyName(), completed.policyName()))
              .containsOnly("fallback");
          assertThat(first.executionId()).isNotBlank().isEqualTo(second.executionId())
              .isEqualTo(completed.executionId());
          assertThat(listener.events).allSatisfy(event -> assertThat(event.toString()).doesNotContain("canary"));

          executions.run("fallback", Map.of("flaky", flaky, "good", good));
          ExecutionCompletedEvent again = (ExecutionCompletedEvent) listener.events.get(9);
          assertThat(again.executionId()).isNotEqualTo(completed.executionId());
        });
  }

  @Test
  void asyncRunPublishesItsEventsBeforeTheFutureCompletes() {
    recordingEventsOf("quick", "200ms", "slow,fast")
        .run(context -> {
          RecordingListener listener = context.getBean(RecordingListener.class);
          AsyncExecutionTarget<String> slow = AsyncExecutionTarget.of("slow", String.class,
              attempt -> new CompletableFuture<>());
          AsyncExecutionTarget<String> fast = AsyncExecutionTarget.of("fast", String.class,
              attempt -> CompletableFuture.completedFuture("ok"));

          ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
              .runAsync("quick", List.of(slow, fast))
              .thenApply(done -> {
                assertThat(listener.events).hasSize(3);
                return done;
              })
              .get(10, TimeUnit.SECONDS);

          assertThat(result.selectedTargetId()).isEqualTo("fast");
          assertThat(((AttemptRecordedEvent) listener.events.get(0)).attempt().failureKind())
              .isEqualTo(FailureKind.TIMEOUT);
          assertThat(((ExecutionCompletedEvent) listener.events.get(2)).outcome())
              .isEqualTo(ExecutionOutcome.SUCCEEDED);
        });
  }

  @Test
  void refusedRunPublishesACompletedEventWithoutAttempts() {
    recordingEventsOf("pay", "1s", "bank,backup")
        .run(context -> {
          RecordingListener listener = context.getBean(RecordingListener.class);
          SyncExecutionTarget<String> bank = SyncExecutionTarget.of("bank", String.class, attempt -> {
            throw new AssertionError("a refused run must not call its target");
          });

          ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
              .run("pay", List.of(bank));

          assertThat(result.machineCode()).isEqualTo(MachineCodes.TARGET_UNAVAILABLE);
          assertThat(listener.events).singleElement().isInstanceOfSatisfying(ExecutionCompletedEvent.class,
              event -> {
                assertThat(event.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
                assertThat(event.attempts()).isEmpty();
              });
        });
  }

  @Test
  void unknownPolicyNameFailsBeforeAnyCallNamingTheConfiguredOnes() {
    contextRunner.withPropertyValues(P + "known.total-timeout=1s", P + "known.attempt-timeout=1s",
        P + "known.attempt-targets=a", P + "known.targets=call-time")
        .run(context -> {
          SyncExecutionTarget<String> target = SyncExecutionTarget.of("a", String.class, attempt -> {
            throw new AssertionError("must not be called");
          });
          assertThatIllegalArgumentException()
              .isThrownBy(() -> context.getBean(ZeoCoreExecutions.class).run("unknown", List.of(target)))
              .withMessage("no execution policy named 'unknown'; configured: known "
                  + "(define it under zeocore.execution.policies.unknown)");
        });
  }

  /** One policy with 10s in total and a {@link RecordingListener} that records its events. */
  private ApplicationContextRunner recordingEventsOf(String policy, String attemptTimeout, String attemptTargets) {
    return contextRunner.withUserConfiguration(RecordingListener.class).withPropertyValues(
        P + policy + ".total-timeout=10s", P + policy + ".attempt-timeout=" + attemptTimeout,
        P + policy + ".attempt-targets=" + attemptTargets, P + policy + ".targets=call-time");
  }

  private static void assertFailure(ApplicationContextRunner runner, String... expected) {
    runner.run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = analyze(context);
      assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
      assertThat(analysis.getDescription()).contains(expected);
      assertThat(analysis.getAction()).startsWith("Update zeocore.execution.");
    });
  }

  private static FailureAnalysis analyze(AssertableApplicationContext context) {
    return new InvalidExecutionPolicyFailureAnalyzer().analyze(context.getStartupFailure());
  }

  @Configuration(proxyBeanMethods = false)
  static class UserBeans {

    static final ExecutionPolicies POLICIES = ExecutionPolicies.of(Map.of("mine", ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(1)).attemptTimeout(Duration.ofSeconds(1)).attemptTargets("x").build()));
    static final ResilientRunner RUNNER = ResilientRunner.create();

    @Bean
    ExecutionPolicies myPolicies() {
      return POLICIES;
    }

    @Bean
    ResilientRunner myRunner() {
      return RUNNER;
    }
  }
}
