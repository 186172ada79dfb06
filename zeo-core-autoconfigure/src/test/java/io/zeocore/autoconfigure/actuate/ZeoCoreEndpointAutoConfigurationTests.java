package io.zeocore.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint.PolicyDescriptor;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint.ZeoCoreDescriptor;
import io.zeocore.autoconfigure.connections.EffectFixtures;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
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
              "cooperative", Map.of()));
          String json = JsonMapper.builder().build().writeValueAsString(descriptor);
          assertThat(json).contains("\"lookup\":{\"operationMode\":\"read_only\"", "\"attemptTargets\":[\"db\"]",
              "\"totalTimeout\":120000,\"attemptTimeout\":90000", "\"backoff\":[500]", "\"cancellationPoll\":100")
              .doesNotContain("PT");
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
}
