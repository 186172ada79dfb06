package io.zeocore.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.zeocore.autoconfigure.connections.EffectFixtures;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectExecutionResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
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

  private final Queue<Observation.Context> started = new ConcurrentLinkedQueue<>();

  {
    registry.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStart(Observation.Context context) {
        started.add(context);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
  }

  @Test
  void anEffectThatGoesAmbiguousThenSucceededIsObservedTransitionByTransition() throws Exception {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreObservationAutoConfiguration.class,
            ZeoCoreConnectionsAutoConfiguration.class))
        .withBean(ObservationRegistry.class, () -> registry)
        .withUserConfiguration(Reconcilers.class)
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("store/zeocore.db"),
            "zeocore.connections.recovery.enabled=false", "zeocore.connections.recovery.initial-backoff=1ms")
        .withPropertyValues(EffectFixtures.authorizationProperties(EffectFixtures.writePublicKey(temp)))
        .run(context -> {
          assertThat(context).hasSingleBean(ObservingEffectListener.class);
          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));
          EffectExecutionResult ambiguous =
              EffectFixtures.ambiguousRefund(context.getBean(EffectOrchestrator.class), "exec-obs");
          assertThat(ambiguous.state()).isEqualTo(EffectState.AMBIGUOUS);
          Thread.sleep(5);
          assertThat(context.getBean(EffectRecovery.class).recoverOnce().succeeded()).isEqualTo(1);

          List<Observation.Context> transitions = started.stream()
              .filter(observed -> ObservingEffectListener.NAME.equals(observed.getName())).toList();
          List<String> states = transitions.stream()
              .map(observed -> observed.getLowCardinalityKeyValue("state").getValue()).toList();
          assertThat(states).contains("ambiguous").endsWith("succeeded");
          assertThat(states.indexOf("ambiguous")).isLessThan(states.lastIndexOf("succeeded"));
          assertThat(transitions).allSatisfy(observed -> {
            assertThat(observed.getLowCardinalityKeyValue("operation").getValue()).isEqualTo("create_refund");
            assertThat(observed.getHighCardinalityKeyValue("effect.execution.id").getValue()).isEqualTo("exec-obs");
            assertThat(observed.getAllKeyValues().toString()).doesNotContain(EffectFixtures.CANARY);
          });
          assertThat(transitions.get(transitions.size() - 1).getLowCardinalityKeyValue("previous.state").getValue())
              .isEqualTo("ambiguous");
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
