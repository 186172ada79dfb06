package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.ResilientRunner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of ZeoCore's Micrometer
 * observations: an {@link ObservingAttemptListener} that the auto-configured {@link ResilientRunner} picks up with its
 * other listeners, an {@link ObservingEffectListener} that the auto-configured effect orchestrator and recovery pick
 * up, and an {@link ObservingReadListener} for the auto-configured observation orchestrator.
 * Active when Micrometer Observation is on the classpath and an {@link ObservationRegistry} bean
 * exists; nothing is observed otherwise. Replace the conventions with {@link ExecutionObservationConvention},
 * {@link AttemptObservationConvention} and {@link EffectObservationConvention} beans; switch observations off with Boot's
 * {@code management.observations.enable.zeocore=false}.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
    before = ZeoCoreExecutionAutoConfiguration.class)
@ConditionalOnClass({ObservationRegistry.class, ResilientRunner.class})
@ConditionalOnBean(ObservationRegistry.class)
public final class ZeoCoreObservationAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ObservingAttemptListener zeoCoreObservingAttemptListener(ObservationRegistry registry,
      ObjectProvider<ExecutionObservationConvention> runConvention,
      ObjectProvider<AttemptObservationConvention> attemptConvention) {
    return new ObservingAttemptListener(registry, runConvention.getIfUnique(), attemptConvention.getIfUnique());
  }

  /** The effect and read observations, when the application has ZeoCore's connections. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.zeocore.connections.effect.EffectListener")
  static class ConnectionsObservations {

    @Bean
    @ConditionalOnMissingBean
    ObservingReadListener zeoCoreObservingReadListener(ObservationRegistry registry) {
      return new ObservingReadListener(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    ObservingEffectListener zeoCoreObservingEffectListener(ObservationRegistry registry,
        ObjectProvider<EffectObservationConvention> effectConvention) {
      return new ObservingEffectListener(registry, effectConvention.getIfUnique());
    }
  }
}
