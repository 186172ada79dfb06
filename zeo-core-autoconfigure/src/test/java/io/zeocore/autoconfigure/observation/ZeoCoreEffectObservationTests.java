package io.zeocore.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.zeocore.autoconfigure.connections.EffectFixtures;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectPreflightException;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.read.ReadDispatchResult;
import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.read.ReadPreflightException;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ZeoCoreEffectObservationTests {

  @TempDir
  Path temp;

  private final TestObservationRegistry registry = TestObservationRegistry.create();

  private final Queue<Observation.Context> started = StartedObservations.recordedBy(registry);

  /** Observations and connections auto-configured, a store in the temporary directory, authorization trusted. */
  private ApplicationContextRunner connections() throws Exception {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreObservationAutoConfiguration.class,
            ZeoCoreConnectionsAutoConfiguration.class))
        .withBean(ObservationRegistry.class, () -> registry)
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("store/zeocore.db"),
            "zeocore.connections.recovery.enabled=false")
        .withPropertyValues(EffectFixtures.authorizationProperties(EffectFixtures.writePublicKey(temp)));
  }

  @Test
  void anEffectThatGoesAmbiguousThenSucceededIsObservedTransitionByTransition() throws Exception {
    connections().withUserConfiguration(Reconcilers.class)
        .withPropertyValues("zeocore.connections.recovery.initial-backoff=1ms")
        .run(context -> {
          assertThat(context).hasSingleBean(ObservingEffectListener.class);
          assertThat(EffectFixtures.recoverAnAmbiguousRefund(context, "exec-obs").succeeded()).isEqualTo(1);

          List<Observation.Context> transitions = started.stream()
              .filter(observed -> ObservingEffectListener.NAME.equals(observed.getName())).toList();
          List<String> states = transitions.stream()
              .map(observed -> observed.getLowCardinalityKeyValue("state").getValue()).toList();
          assertThat(states).contains("ambiguous").endsWith("succeeded");
          assertThat(states.indexOf("ambiguous")).isLessThan(states.lastIndexOf("succeeded"));
          assertThat(transitions).allSatisfy(observed -> {
            assertThat(observed.getLowCardinalityKeyValue("operation").getValue()).isEqualTo("create_refund");
            assertThat(observed.getHighCardinalityKeyValue("effect.id").getValue()).isEqualTo("exec-obs");
            assertThat(observed.getAllKeyValues().toString()).doesNotContain(EffectFixtures.CANARY);
          });
          assertThat(transitions.get(transitions.size() - 1).getLowCardinalityKeyValue("previous.state").getValue())
              .isEqualTo("ambiguous");
        });
  }

  @Test
  void eachExecuteCallIsOneEffectObservationParentOfItsTransitionsWithTheStateRefusalOrErrorItEndedWith()
      throws Exception {
    connections().run(context -> {
          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));
          EffectOrchestrator orchestrator = context.getBean(EffectOrchestrator.class);

          EffectFixtures.refund(orchestrator, "exec-ok");
          EffectFixtures.ambiguousRefund(orchestrator, "exec-ambiguous");
          orchestrator.execute(EffectFixtures.ORG, EffectFixtures.CONNECTION, EffectFixtures.REVISION,
              EffectFixtures.CREATE_REFUND, null, new EffectId("exec-refused"), EffectFixtures.BODY,
              request -> EffectDispatchResult.confirmed(EffectFixtures.CONFIRMATION), EffectFixtures.unresolved());
          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class), ConnectionStatus.REPAIR_REQUIRED);
          assertThatThrownBy(() -> EffectFixtures.refund(orchestrator, "exec-rejected"))
              .isInstanceOf(EffectPreflightException.class);

          List<Observation.Context> effects = started.stream()
              .filter(observed -> DefaultEffectObservationConvention.NAME.equals(observed.getName())).toList();
          assertThat(effects).extracting(observed -> observed.getHighCardinalityKeyValue("effect.id")
              .getValue()).containsExactly("exec-ok", "exec-ambiguous", "exec-refused", "exec-rejected");
          assertThat(effects).extracting(observed -> observed.getLowCardinalityKeyValue("state").getValue())
              .containsExactly("succeeded", "ambiguous", "refused", "error");
          assertThat(effects.get(2).getLowCardinalityKeyValue("refusal.reason").getValue()).isEqualTo("absent");
          assertThat(effects.get(0).getLowCardinalityKeyValue("refusal.reason").getValue()).isEqualTo("none");
          assertThat(effects.get(3).getLowCardinalityKeyValue("error").getValue())
              .startsWith("EffectPreflightException:");
          for (Observation.Context effect : effects) {
            assertThat(effect.getLowCardinalityKeyValue("operation").getValue()).isEqualTo("create_refund");
            assertThat(effect.getAllKeyValues().toString()).doesNotContain(EffectFixtures.CANARY);
          }
          List<Observation.Context> transitions = started.stream()
              .filter(observed -> ObservingEffectListener.NAME.equals(observed.getName())).toList();
          assertThat(transitions).isNotEmpty().allSatisfy(transition -> {
            String id = transition.getHighCardinalityKeyValue("effect.id").getValue();
            Observation.Context parent = transition.getParentObservation().getContextView() instanceof
                Observation.Context parentContext ? parentContext : null;
            assertThat(parent).isNotNull();
            assertThat(parent.getName()).isEqualTo(DefaultEffectObservationConvention.NAME);
            assertThat(parent.getHighCardinalityKeyValue("effect.id").getValue()).isEqualTo(id);
          });
          assertThat(registry.getCurrentObservation()).isNull();
        });
  }

  @Test
  void eachAuthorizedReadIsOneReadObservationWithItsRefusalOrError() throws Exception {
    connections().run(context -> {
          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));
          ReadOrchestrator reads = context.getBean(ReadOrchestrator.class);

          reads.read(EffectFixtures.ORG, EffectFixtures.CONNECTION, EffectFixtures.REVISION,
              EffectFixtures.CREATE_REFUND, null, new ReadId("read-refused"), EffectFixtures.BODY,
              request -> ReadDispatchResult.inline(1));
          assertThatThrownBy(() -> reads.read(EffectFixtures.ORG, EffectFixtures.CONNECTION,
              EffectFixtures.REVISION, EffectFixtures.CREATE_REFUND, EffectFixtures.authorization("n-read", "k-read"),
              new ReadId("read-effectful"), EffectFixtures.BODY, request -> ReadDispatchResult.inline(1)))
              .isInstanceOf(ReadPreflightException.class);

          List<Observation.Context> observed = started.stream()
              .filter(context1 -> ObservingReadListener.NAME.equals(context1.getName())).toList();
          assertThat(observed).extracting(read -> read.getHighCardinalityKeyValue("read.id").getValue())
              .containsExactly("read-refused", "read-effectful");
          assertThat(observed.get(0).getLowCardinalityKeyValue("state").getValue()).isEqualTo("refused");
          assertThat(observed.get(0).getLowCardinalityKeyValue("refusal.reason").getValue()).isEqualTo("absent");
          assertThat(observed.get(1).getLowCardinalityKeyValue("state").getValue()).isEqualTo("error");
          assertThat(observed.get(1).getLowCardinalityKeyValue("error").getValue())
              .isEqualTo("ReadPreflightException:effectful_operation");
          assertThat(registry.getCurrentObservation()).isNull();
        });
  }

  @Configuration(proxyBeanMethods = false)
  static class Reconcilers {

    @Bean(EffectFixtures.STRATEGY)
    EffectReconciler lookupByIdempotencyKey() {
      return EffectFixtures.confirming();
    }
  }
}
