package io.zeocore.autoconfigure.actuate;

import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.connections.store.StoreIntrospection;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the {@code zeocore}
 * health indicator. Active when Spring Boot's health support is on the classpath and ZeoCore's store exists; switched
 * off by {@code management.health.zeocore.enabled=false}.
 */
@AutoConfiguration(after = ZeoCoreConnectionsAutoConfiguration.class)
@ConditionalOnClass(value = {HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class},
    name = "io.zeocore.connections.store.StoreIntrospection")
@ConditionalOnBean(StoreIntrospection.class)
@ConditionalOnEnabledHealthIndicator("zeocore")
public final class ZeoCoreHealthContributorAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "zeocoreHealthIndicator")
  ZeoCoreHealthIndicator zeocoreHealthIndicator(StoreIntrospection store) {
    return new ZeoCoreHealthIndicator(store);
  }
}
