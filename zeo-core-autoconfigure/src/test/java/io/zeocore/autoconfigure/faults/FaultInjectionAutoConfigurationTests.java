package io.zeocore.autoconfigure.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.InvalidExecutionPolicyPropertyException;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.autoconfigure.metrics.ZeoCoreExecutionMetrics;
import io.zeocore.autoconfigure.metrics.ZeoCoreMetricsAutoConfiguration;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.OperationMode;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.ZeoCoreExecutions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * Fault injection in a running application: injected failures labelled in records, events and meters and never
 * counted towards cooldowns, latency and hangs, and the start-up refusals (profile, ids, values, effectful plans).
 */
class FaultInjectionAutoConfigurationTests {

  private static final AtomicInteger PRIMARY_CALLS = new AtomicInteger();

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
          CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
          ZeoCoreFaultInjectionAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class,
          ZeoCoreMetricsAutoConfiguration.class))
      .withUserConfiguration(Targets.class)
      .withPropertyValues("zeocore.execution.policies.answer.total-timeout=10s",
          "zeocore.execution.policies.answer.attempt-timeout=300ms",
          "zeocore.execution.policies.answer.attempt-targets=primary,fallback");

  private ApplicationContextRunner staging(String... faults) {
    return contextRunner.withPropertyValues("spring.profiles.active=staging", "zeocore.faults.enabled=true",
        "zeocore.faults.profile=staging").withPropertyValues(faults);
  }

  @Configuration(proxyBeanMethods = false)
  static class Targets {

    final List<Object> events = new CopyOnWriteArrayList<>();

    @Bean
    NamedTarget<String, String> primary() {
      return NamedTarget.of("primary", String.class, String.class, (input, context) -> {
        PRIMARY_CALLS.incrementAndGet();
        return "real primary";
      });
    }

    @Bean
    NamedTarget<String, String> fallback() {
      return NamedTarget.ofAsync("fallback", String.class, String.class,
          (input, context) -> CompletableFuture.completedFuture("real fallback"));
    }

    @EventListener
    void faults(FaultInjectedEvent event) {
      events.add(event);
    }

    @EventListener
    void attempts(AttemptRecordedEvent event) {
      events.add(event);
    }
  }

  @Test
  void anInjectedFailureIsLabelledInItsRecordEventsAndMetersAndCoolsNothing() {
    staging("zeocore.faults.targets.primary.kind=rate-limit", "zeocore.faults.targets.primary.retry-after=1s")
        .run(context -> {
          PRIMARY_CALLS.set(0);
          ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
              .run("answer", "q", String.class);
          assertThat(result.value()).isEqualTo("real fallback");
          AttemptRecord injected = result.attempts().get(0);
          assertThat(injected.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
          assertThat(injected.machineCode()).isEqualTo(MachineCodes.FAULT_INJECTED);
          assertThat(injected.dispatchStarted()).isFalse();
          assertThat(PRIMARY_CALLS).as("the target was not called").hasValue(0);
          assertThat(injected.backoffBeforeNext()).as("the injected Retry-After is waited like a real one")
              .isEqualTo(Duration.ofSeconds(1));
          assertThat(context.getBean(TargetHealth.class).states()).as("an injected 429 cools nothing").isEmpty();

          List<Object> events = context.getBean(Targets.class).events;
          assertThat(events).first().isEqualTo(new FaultInjectedEvent("primary", "rate_limit"));
          assertThat(events).filteredOn(AttemptRecordedEvent.class::isInstance).first()
              .satisfies(event -> assertThat(((AttemptRecordedEvent) event).attempt()).isEqualTo(injected));
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          assertThat(meters.get(ZeoCoreExecutionMetrics.ATTEMPTS).tag("target", "primary").tag("injected", "true")
              .counter().count()).isEqualTo(1);
          assertThat(meters.get(ZeoCoreExecutionMetrics.ATTEMPTS).tag("target", "fallback").tag("injected", "false")
              .counter().count()).isEqualTo(1);
          assertThat(meters.get(ZeoCoreExecutionMetrics.FAULTS_INJECTED).tag("target", "primary")
              .tag("fault", "rate_limit").counter().count()).isEqualTo(1);
        });
  }

  @Test
  void aHangSpendsTheAttemptTimeoutAndIsRecordedAsAnInjectedTimeoutOnSyncAndAsyncTargets() {
    staging("zeocore.faults.targets.primary.hang=true", "zeocore.faults.targets.fallback.hang=true",
        "zeocore.execution.policies.answer.attempt-timeout=2s").run(context -> {
      ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
          .run("answer", "q", String.class);
      assertThat(result.attempts()).allSatisfy(attempt -> {
        assertThat(attempt.failureKind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(attempt.machineCode()).isEqualTo(MachineCodes.FAULT_INJECTED);
        assertThat(attempt.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(1_800));
      });
      assertThat(result.machineCode()).isEqualTo(MachineCodes.FAULT_INJECTED);
    });
  }

  @Test
  void latencyDelaysTheRealCallAndIsCountedButFailsNothing() {
    staging("zeocore.faults.targets.primary.latency=50ms").run(context -> {
      PRIMARY_CALLS.set(0);
      ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
          .run("answer", "q", String.class);
      assertThat(result.value()).isEqualTo("real primary");
      assertThat(result.attempts().get(0).duration()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
      assertThat(PRIMARY_CALLS).hasValue(1);
      assertThat(context.getBean(MeterRegistry.class).get(ZeoCoreExecutionMetrics.FAULTS_INJECTED)
          .tag("fault", "latency").counter().count()).isEqualTo(1);
    });
  }

  @Test
  void offUnlessEnabledAndThenTheRegistryIsTheApplicationsOwn() {
    contextRunner.withPropertyValues("zeocore.faults.targets.primary.kind=timeout").run(context -> {
      assertThat(context).doesNotHaveBean(FaultInjectingTargets.class);
      assertThat(context.getBean(ZeoCoreExecutions.class).run("answer", "q", String.class).value())
          .isEqualTo("real primary");
    });
  }

  @Test
  void startUpRefusesFaultsOutsideTheirProfileAndBrokenValues() {
    assertRefused(contextRunner.withPropertyValues("zeocore.faults.enabled=true",
        "zeocore.faults.targets.primary.kind=timeout"), "zeocore.faults.profile", "needs the profile");
    assertRefused(contextRunner.withPropertyValues("spring.profiles.active=dev", "zeocore.faults.enabled=true",
        "zeocore.faults.profile=staging", "zeocore.faults.targets.primary.kind=timeout"),
        "zeocore.faults.profile", "'staging' is not active (active: dev)");
    assertRefused(staging("zeocore.faults.targets.primray.kind=timeout"), "zeocore.faults.targets.primray",
        "did you mean 'primary'?");
    assertRefused(staging("zeocore.faults.targets.primary.kind=timeout", "zeocore.faults.targets.primary.rate=1.5"),
        "zeocore.faults.targets.primary.rate", "more than 0 and at most 1");
    assertRefused(staging("zeocore.faults.targets.primary.kind=cancelled"), "zeocore.faults.targets.primary.kind",
        "cannot be injected");
    assertRefused(staging("zeocore.faults.targets.primary.kind=timeout", "zeocore.faults.targets.primary.hang=true"),
        "zeocore.faults.targets.primary.kind", "one fault");
    assertRefused(staging("zeocore.faults.targets.primary.kind=timeout",
        "zeocore.faults.targets.primary.retry-after=1s"), "zeocore.faults.targets.primary.retry-after",
        "goes with kind: rate_limit");
  }

  @Test
  void startUpRefusesFaultsInATargetThatAnEffectfulPolicyPlans() {
    assertRefused(staging("zeocore.faults.targets.primary.kind=timeout")
        .withBean(ExecutionPolicies.class, () -> ExecutionPolicies.of(Map.of("payout", ExecutionPolicy.builder()
            .name("payout").operationMode(OperationMode.EFFECTFUL).totalTimeout(Duration.ofSeconds(5))
            .attemptTimeout(Duration.ofSeconds(5)).attemptTargets("primary").build()))),
        "zeocore.faults.targets.primary", "the effectful policy 'payout' plans 'primary'");
  }

  private static void assertRefused(ApplicationContextRunner runner, String property, String rule) {
    runner.run(context -> {
      assertThat(context).hasFailed();
      assertThat(org.springframework.core.NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
          .isInstanceOf(InvalidExecutionPolicyPropertyException.class)
          .hasMessageContaining(property).hasMessageContaining(rule);
    });
  }

  @Test
  void theWrappedRegistryKeepsEveryIdAndType() {
    staging("zeocore.faults.targets.fallback.kind=transient").run(context -> {
      TargetRegistry registry = context.getBean(TargetRegistry.class);
      assertThat(registry.ids()).containsExactlyInAnyOrder("primary", "fallback");
      assertThat(registry.find("fallback").orElseThrow().isAsync()).isTrue();
      assertThat(registry.find("fallback").orElseThrow().responseType()).isEqualTo(String.class);
    });
  }
}
