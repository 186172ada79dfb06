package io.zeocore.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.connections.store.StoreIntrospection;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of ZeoCore's Micrometer
 * meters: {@link ZeoCoreExecutionMetrics} always, {@link ZeoCoreEffectMetrics} when ZeoCore's store exists. Active
 * when Micrometer is on the classpath and a {@link MeterRegistry} bean exists; switched off by
 * {@code zeocore.metrics.enabled=false}.
 */
@AutoConfiguration(after = {MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
    SimpleMetricsExportAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class,
    ZeoCoreConnectionsAutoConfiguration.class})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "zeocore.metrics.enabled", matchIfMissing = true)
public final class ZeoCoreMetricsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ZeoCoreExecutionMetrics zeoCoreExecutionMetrics(MeterRegistry registry,
      org.springframework.beans.factory.ObjectProvider<io.zeocore.execution.TargetHealth> targetHealth) {
    ZeoCoreExecutionMetrics metrics = new ZeoCoreExecutionMetrics(registry);
    targetHealth.ifAvailable(metrics::bindTargetHealth);
    return metrics;
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.zeocore.connections.store.StoreIntrospection")
  @ConditionalOnBean(StoreIntrospection.class)
  static class EffectMetricsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ZeoCoreEffectMetrics zeoCoreEffectMetrics(MeterRegistry registry, StoreIntrospection store) {
      return new ZeoCoreEffectMetrics(registry, store);
    }
  }
}
