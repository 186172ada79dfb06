package io.zeocore.autoconfigure.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpointAutoConfiguration;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.metrics.ZeoCoreExecutionMetrics;
import io.zeocore.autoconfigure.metrics.ZeoCoreMetricsAutoConfiguration;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.InMemoryTargetHealthStore;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.TargetCooldown;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.TargetHealthStore;
import io.zeocore.execution.ZeoCoreExecutions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * The starter's target health: the bean and its rules from YAML, the runner that consults it, sharing through the
 * store, the refusals of broken values, and its events, meters and actuator view.
 */
class TargetHealthAutoConfigurationTests {

  @TempDir
  Path temp;

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class))
      .withPropertyValues("zeocore.execution.policies.answer.total-timeout=10s",
          "zeocore.execution.policies.answer.attempt-timeout=5s",
          "zeocore.execution.policies.answer.attempt-targets=primary,fallback",
          "zeocore.execution.policies.answer.targets=call-time");

  private static final AtomicInteger PRIMARY_CALLS = new AtomicInteger();

  private static List<SyncExecutionTarget<String>> rateLimitedPrimary() {
    return List.of(SyncExecutionTarget.of("primary", String.class, context -> {
      PRIMARY_CALLS.incrementAndGet();
      throw new AttemptError(FailureKind.RATE_LIMIT, true, Duration.ofSeconds(30));
    }), SyncExecutionTarget.of("fallback", String.class, context -> "from fallback"));
  }

  @Test
  void theRunnerConsultsAnInMemoryTargetHealthWithTheConservativeDefaultRule() {
    contextRunner.run(context -> {
      TargetHealth health = context.getBean(TargetHealth.class);
      assertThat(context.getBean(ResilientRunner.class).targetHealth()).containsSame(health);
      assertThat(health.store()).isInstanceOf(InMemoryTargetHealthStore.class);
      assertThat(health.cooldown("primary")).isEqualTo(TargetCooldown.DEFAULT);

      PRIMARY_CALLS.set(0);
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
      ResilientExecutionResult<String> first = executions.run("answer", rateLimitedPrimary());
      ResilientExecutionResult<String> second = executions.run("answer", rateLimitedPrimary());
      assertThat(first.value()).isEqualTo("from fallback");
      assertThat(second.attempts().get(0).outcome()).isEqualTo(AttemptOutcome.SKIPPED);
      assertThat(second.attempts().get(0).machineCode()).isEqualTo(MachineCodes.TARGET_COOLING);
      assertThat(PRIMARY_CALLS).hasValue(1);
    });
  }

  @Test
  void rulesComeFromTheTargetsAndTheDefaultCooldown() {
    contextRunner.withPropertyValues(
            "zeocore.execution.target-health.default-cooldown.max-retry-after=2m",
            "zeocore.execution.targets.primary.cooldown.max-retry-after=10s",
            "zeocore.execution.targets.primary.cooldown.failures.threshold=5",
            "zeocore.execution.targets.primary.cooldown.failures.window=20s",
            "zeocore.execution.targets.primary.cooldown.failures.cool-for=45s",
            "zeocore.execution.targets.primary.cooldown.failures.kinds=timeout,malformed-response",
            "zeocore.execution.targets.fallback.cooldown.honor-retry-after=false",
            "zeocore.execution.policies.answer.ignore-cooldowns=true")
        .run(context -> {
          TargetHealth health = context.getBean(TargetHealth.class);
          assertThat(health.cooldown("primary")).isEqualTo(new TargetCooldown(Duration.ofSeconds(10), 5,
              java.util.Set.of(FailureKind.TIMEOUT, FailureKind.MALFORMED_RESPONSE), Duration.ofSeconds(20),
              Duration.ofSeconds(45)));
          assertThat(health.cooldown("fallback").maxRetryAfter()).isNull();
          assertThat(health.cooldown("elsewhere").maxRetryAfter()).isEqualTo(Duration.ofMinutes(2));
          assertThat(context.getBean(ExecutionPolicies.class).get("answer").ignoreCooldowns()).isTrue();
        });
  }

  @Test
  void switchedOffTheRunnerCallsEveryPlannedTarget() {
    contextRunner.withPropertyValues("zeocore.execution.target-health.enabled=false").run(context -> {
      assertThat(context).doesNotHaveBean(TargetHealth.class);
      assertThat(context.getBean(ResilientRunner.class).targetHealth()).isEmpty();
    });
  }

  @Test
  void refusesBrokenValuesNamingTheirProperty() {
    assertRefused("zeocore.execution.targets.primary.cooldown.failures.threshold=-1",
        "zeocore.execution.targets.primary.cooldown.failures.threshold", "0 (off) or more");
    assertRefused("zeocore.execution.targets.primary.cooldown.failures.kinds=validation",
        "zeocore.execution.targets.primary.cooldown.failures.kinds", "say nothing about the target's health");
    assertRefused("zeocore.execution.targets.primary.cooldown.max-retry-after=0s",
        "zeocore.execution.targets.primary.cooldown.max-retry-after", "must be greater than 0");
    assertRefused("zeocore.execution.target-health.refresh-interval=0ms",
        "zeocore.execution.target-health.refresh-interval", "must be greater than 0");
    assertRefused("zeocore.execution.targets.primray.cooldown.max-retry-after=10s",
        "zeocore.execution.targets.primray", "did you mean 'primary'?");
    assertRefused("zeocore.execution.target-health.sharing=store", "zeocore.execution.target-health.sharing",
        "needs ZeoCore's store");
  }

  private void assertRefused(String property, String named, String rule) {
    contextRunner.withPropertyValues(property).run(context -> assertThat(context).getFailure().rootCause()
        .isInstanceOf(InvalidExecutionPolicyPropertyException.class)
        .hasMessageContaining(named).hasMessageContaining(rule));
  }

  @Test
  void sharingThroughTheStoreUsesItsTargetHealthTable() {
    contextRunner.withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class))
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("store/zeocore.db"),
            "zeocore.execution.target-health.sharing=store", "zeocore.execution.target-health.instance-id=app-1")
        .run(context -> {
          TargetHealth health = context.getBean(TargetHealth.class);
          assertThat(health.store()).isSameAs(context.getBean(TargetHealthStore.class));
          assertThat(health.store()).isNotInstanceOf(InMemoryTargetHealthStore.class);
          assertThat(health.instanceId()).isEqualTo("app-1");
          context.getBean(ZeoCoreExecutions.class).run("answer", rateLimitedPrimary());
          health.close(); // flushes the write
          assertThat(health.store().read()).singleElement()
              .satisfies(entry -> assertThat(entry.targetId()).isEqualTo("primary"));
        });
  }

  @Test
  void publishesChangesAndMetersSkipsTransitionsAndUnavailableTargets() {
    contextRunner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
            ZeoCoreMetricsAutoConfiguration.class))
        .withUserConfiguration(ChangeRecorder.class)
        .run(context -> {
          ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
          executions.run("answer", rateLimitedPrimary());
          executions.run("answer", rateLimitedPrimary());
          List<TargetHealthChangedEvent> changes = context.getBean(ChangeRecorder.class).changes;
          assertThat(changes).singleElement().satisfies(event -> {
            assertThat(event.change().targetId()).isEqualTo("primary");
            assertThat(event.change().transition()).isEqualTo(TargetHealth.Transition.COOLING_STARTED);
            assertThat(event.change().cause()).isEqualTo(FailureKind.RATE_LIMIT);
            assertThat(event.change().coolingFor()).isEqualTo(Duration.ofSeconds(30));
            assertThat(event.change().fromStore()).isFalse();
          });
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          assertThat(meters.get(ZeoCoreExecutionMetrics.TARGET_SKIPS).tag("policy", "answer")
              .tag("target", "primary").tag("failure.kind", "rate_limit").counter().count()).isEqualTo(1);
          assertThat(meters.get(ZeoCoreExecutionMetrics.ATTEMPTS).tag("outcome", "skipped").counter().count())
              .isEqualTo(1);
          assertThat(meters.get(ZeoCoreExecutionMetrics.TARGET_TRANSITIONS).tag("target", "primary")
              .tag("transition", "cooling_started").tag("origin", "local").counter().count()).isEqualTo(1);
          assertThat(meters.get(ZeoCoreExecutionMetrics.TARGET_UNAVAILABLE).gauge().value()).isEqualTo(1);
        });
  }

  @Test
  void theEndpointShowsEachCoolingTargetAndUntilWhen() {
    contextRunner.withConfiguration(AutoConfigurations.of(ZeoCoreEndpointAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=zeocore")
        .run(context -> {
          ZeoCoreEndpoint endpoint = context.getBean(ZeoCoreEndpoint.class);
          assertThat(endpoint.zeocore().targets()).isEmpty();
          context.getBean(ZeoCoreExecutions.class).run("answer", rateLimitedPrimary());
          assertThat(endpoint.zeocore().targets()).singleElement().satisfies(target -> {
            assertThat(target.targetId()).isEqualTo("primary");
            assertThat(target.status()).isEqualTo("cooling");
            assertThat(target.cause()).isEqualTo("rate_limit");
            assertThat(target.reason()).isEqualTo("retry_after");
            assertThat(target.coolingLeft()).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
            assertThat(target.coolingUntil()).isAfter(java.time.Instant.now().plusSeconds(20));
          });
          ZeoCoreEndpoint.TargetsDescriptor targets =
              (ZeoCoreEndpoint.TargetsDescriptor) endpoint.select(ZeoCoreEndpoint.TARGETS);
          assertThat(targets.enabled()).isTrue();
          assertThat(targets.targets()).extracting(ZeoCoreEndpoint.TargetView::targetId).containsExactly("primary");
          String json = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(targets);
          assertThat(json).contains("\"status\":\"cooling\"", "\"cause\":\"rate_limit\"").doesNotContain("PT");
        });
  }

  @Test
  void theReadmeExampleStartsAsWritten() throws Exception {
    String readme = java.nio.file.Files.readString(readme());
    int section = readme.indexOf("## Target health: cooldowns shared across instances");
    assertThat(section).isPositive();
    int start = readme.indexOf("```yaml\n", section) + "```yaml\n".length();
    String yaml = readme.substring(start, readme.indexOf("```", start));
    List<org.springframework.core.env.PropertySource<?>> sources = new org.springframework.boot.env
        .YamlPropertySourceLoader().load("readme", new org.springframework.core.io.ByteArrayResource(
            yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
            ZeoCoreConnectionsAutoConfiguration.class))
        .withInitializer(context -> sources.forEach(context.getEnvironment().getPropertySources()::addFirst))
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("readme/zeocore.db"))
        .withBean("openAiApi", io.zeocore.execution.NamedTarget.class, () -> io.zeocore.execution.NamedTarget.of(
            "openai-api", String.class, String.class, (input, context) -> "ok"))
        .run(context -> {
          TargetHealth health = context.getBean(TargetHealth.class);
          assertThat(health.store()).isNotInstanceOf(InMemoryTargetHealthStore.class);
          assertThat(health.cooldown("openai-api")).isEqualTo(new TargetCooldown(Duration.ofMinutes(2), 5,
              java.util.Set.of(FailureKind.TIMEOUT, FailureKind.TRANSIENT), Duration.ofMinutes(1),
              Duration.ofSeconds(30)));
          assertThat(health.cooldown("any-other").maxRetryAfter()).isEqualTo(Duration.ofMinutes(1));
          assertThat(context.getBean(ExecutionPolicies.class).get("provider-health-check").ignoreCooldowns())
              .isTrue();
        });
  }

  /** The repository's README, found from the module's directory. */
  private static Path readme() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !java.nio.file.Files.exists(dir.resolve("README.md"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("the repository root").isNotNull();
    return dir.resolve("README.md");
  }

  @Configuration(proxyBeanMethods = false)
  static class ChangeRecorder {

    final List<TargetHealthChangedEvent> changes = new CopyOnWriteArrayList<>();

    @EventListener
    void record(TargetHealthChangedEvent change) {
      changes.add(change);
    }
  }
}
