package io.zeocore.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint.EventsDescriptor;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint.PolicyDescriptor;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint.PolicyView;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint.ZeoCoreDescriptor;
import io.zeocore.autoconfigure.connections.EffectFixtures;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

class ZeoCoreEndpointAutoConfigurationTests {

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
          ZeoCoreEndpointAutoConfiguration.class));

  @Test
  void listsEveryPolicyAndItsPlanWhenExposed() {
    contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zeocore",
        "zeocore.execution.configs.default.total-timeout=2m",
        "zeocore.execution.configs.default.attempt-timeout=90s",
        "zeocore.execution.configs.default.targets=call-time",
        "zeocore.execution.policies.summarize.operation-mode=advisory",
        "zeocore.execution.policies.summarize.attempt-targets=ollama-local,openai-api",
        "zeocore.execution.policies.summarize.backoff=500ms",
        "zeocore.execution.policies.summarize.retryable-failures=rate-limit,timeout",
        "zeocore.execution.policies.lookup.attempt-targets=db")
        .run(context -> {
          ZeoCoreDescriptor descriptor = context.getBean(ZeoCoreEndpoint.class).zeocore();
          assertThat(descriptor.policies()).containsOnlyKeys("summarize", "lookup");
          assertThat(descriptor.policies().get("summarize")).isEqualTo(new PolicyDescriptor("advisory",
              Duration.ofMinutes(2), Duration.ofSeconds(90), List.of("ollama-local", "openai-api"),
              List.of(new BigDecimal("500")), 0.0, List.of("timeout", "rate_limit"), false, Duration.ofMillis(100),
              "cooperative", Map.of(), false));
          String json = JsonMapper.builder().build().writeValueAsString(descriptor);
          assertThat(json).contains("\"lookup\":{\"operationMode\":\"read_only\"", "\"attemptTargets\":[\"db\"]",
              "\"totalTimeout\":120000,\"attemptTimeout\":90000", "\"backoff\":[500]", "\"cancellationPoll\":100")
              .doesNotContain("PT");
        });
  }

  @Test
  void showsAnExponentialBackoffExpandedIntoTheExplicitList() {
    contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zeocore",
        "zeocore.execution.policies.retrying.total-timeout=30s",
        "zeocore.execution.policies.retrying.attempt-timeout=5s",
        "zeocore.execution.policies.retrying.targets=call-time",
        "zeocore.execution.policies.retrying.attempt-targets=a,a,a,b,b",
        "zeocore.execution.policies.retrying.exponential-backoff.initial=200ms",
        "zeocore.execution.policies.retrying.exponential-backoff.multiplier=2",
        "zeocore.execution.policies.retrying.exponential-backoff.max=1s")
        .run(context -> {
          ZeoCoreDescriptor descriptor = context.getBean(ZeoCoreEndpoint.class).zeocore();
          assertThat(descriptor.policies().get("retrying").backoff()).containsExactly(new BigDecimal("200"),
              new BigDecimal("400"), new BigDecimal("800"), new BigDecimal("1000"));
          assertThat(JsonMapper.builder().build().writeValueAsString(descriptor))
              .contains("\"backoff\":[200,400,800,1000]");
        });
  }

  @Test
  void isAbsentUnlessExposedOrWithoutTheActuator() {
    contextRunner.run(context -> assertThat(context).doesNotHaveBean(ZeoCoreEndpoint.class));
    contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zeocore")
        .withClassLoader(new FilteredClassLoader(Endpoint.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZeoCoreEndpoint.class));
  }

  @Test
  void countsEffectsByStateWhenTheStoreExists(@TempDir Path temp) throws Exception {
    contextRunner.withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=zeocore",
            "zeocore.connections.store.path=" + temp.resolve("zeocore.db"),
            "zeocore.connections.recovery.enabled=false")
        .withPropertyValues(EffectFixtures.authorizationProperties(EffectFixtures.writePublicKey(temp)))
        .run(context -> {
          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));
          EffectFixtures.refund(context.getBean(EffectOrchestrator.class), "exec-1");

          Map<String, Long> effects = context.getBean(ZeoCoreEndpoint.class).zeocore().effects();

          assertThat(effects).hasSize(EffectState.values().length).containsEntry("SUCCEEDED", 1L)
              .containsEntry("AMBIGUOUS", 0L);
        });
  }

  @Test
  void showsNoPoliciesWhenExecutionIsDisabled() {
    contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zeocore",
        "zeocore.execution.enabled=false")
        .run(context -> {
          ZeoCoreDescriptor descriptor = context.getBean(ZeoCoreEndpoint.class).zeocore();
          assertThat(descriptor.policies()).isEmpty();
          assertThat(descriptor.effects()).isNull();
          assertThat(JsonMapper.builder().build().writeValueAsString(descriptor)).isEqualTo("{\"policies\":{}}");
        });
  }

  @Test
  void recentRunsAndEffectTransitionsAreShownBoundedByTheConfiguredSizeWithCodesOnly(@TempDir Path temp)
      throws Exception {
    String canary = "canary-recent-5c2e";
    contextRunner.withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=zeocore", "zeocore.actuator.recent-events=3",
            "zeocore.execution.policies.summarize.attempt-targets=ollama-local,openai-api",
            "zeocore.execution.policies.summarize.total-timeout=5s",
            "zeocore.execution.policies.summarize.attempt-timeout=1s",
            "zeocore.execution.policies.summarize.targets=call-time",
            "zeocore.connections.store.path=" + temp.resolve("zeocore.db"),
            "zeocore.connections.recovery.enabled=false")
        .withPropertyValues(EffectFixtures.authorizationProperties(EffectFixtures.writePublicKey(temp)))
        .run(context -> {
          ZeoCoreEndpoint endpoint = context.getBean(ZeoCoreEndpoint.class);
          ZeoCoreExecutions effects = context.getBean(ZeoCoreExecutions.class);
          for (int i = 0; i < 2; i++) {
            effects.run("summarize", Map.of(
                "ollama-local", SyncExecutionTarget.of("ollama-local", String.class, attempt -> {
                  throw new AttemptError(FailureKind.RATE_LIMIT, true, null, new IllegalStateException(canary));
                }),
                "openai-api", SyncExecutionTarget.of("openai-api", String.class, attempt -> canary)));
          }

          PolicyView summarize = (PolicyView) endpoint.select("summarize");
          assertThat(summarize.recentRuns()).hasSize(2).allSatisfy(run -> {
            assertThat(run.outcome()).isEqualTo("succeeded");
            assertThat(run.targets()).containsExactly("ollama-local:rate_limit", "openai-api:succeeded");
          });
          assertThat(endpoint.select("no-such-policy")).isNull();

          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));
          EffectFixtures.refund(context.getBean(EffectOrchestrator.class), "exec-1");

          EventsDescriptor events = (EventsDescriptor) endpoint.select(ZeoCoreEndpoint.EVENTS);
          assertThat(events.capacity()).isEqualTo(3);
          assertThat(events.events()).extracting(RecentEvents.Entry::state)
              .containsExactly("PREPARED", "DISPATCH_STARTED", "SUCCEEDED");
          assertThat(((PolicyView) endpoint.select("summarize")).recentRuns()).isEmpty();
          String json = JsonMapper.builder().build().writeValueAsString(events);
          assertThat(json).contains("\"kind\":\"effect_transition\"", "\"operation\":\"create_refund\"")
              .doesNotContain(canary, EffectFixtures.CANARY);
        });
  }

  @Test
  void aRecentEventsSizeOutOfRangeStopsStartUpNamingTheProperty() {
    contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zeocore",
        "zeocore.actuator.recent-events=0")
        .run(context -> assertThat(context.getStartupFailure()).rootCause()
            .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, invalid -> {
              assertThat(invalid.getName()).isEqualTo("zeocore.actuator.recent-events");
              assertThat(invalid.getReason()).contains("between 1 and 100000");
            }));
  }
}
