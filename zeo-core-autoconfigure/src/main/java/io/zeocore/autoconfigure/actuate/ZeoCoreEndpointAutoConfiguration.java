package io.zeocore.autoconfigure.actuate;

import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.connections.store.StoreIntrospection;
import io.zeocore.execution.ExecutionPolicies;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the {@code zeocore}
 * actuator endpoint. Active when the actuator is on the classpath and the endpoint is available (enabled and exposed,
 * e.g. {@code management.endpoints.web.exposure.include=zeocore}), with the {@link RecentEvents} ring behind
 * {@code /actuator/zeocore/events} and {@code /actuator/zeocore/{policy}}.
 */
@AutoConfiguration(after = {EndpointAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class,
    ZeoCoreConnectionsAutoConfiguration.class})
@ConditionalOnClass({Endpoint.class, EndpointAutoConfiguration.class})
@ConditionalOnAvailableEndpoint(ZeoCoreEndpoint.class)
@EnableConfigurationProperties(ZeoCoreActuatorProperties.class)
public final class ZeoCoreEndpointAutoConfiguration {

  /** The largest ring ({@code zeocore.actuator.recent-events}). */
  static final int MAX_RECENT_EVENTS = 100_000;

  @Bean
  @ConditionalOnMissingBean
  RecentEvents zeoCoreRecentEvents(ZeoCoreActuatorProperties properties) {
    int size = properties.getRecentEvents();
    if (size < 1 || size > MAX_RECENT_EVENTS) {
      throw new InvalidConfigurationPropertyValueException("zeocore.actuator.recent-events", size,
          "must be between 1 and " + MAX_RECENT_EVENTS);
    }
    return new RecentEvents(size);
  }

  @Bean
  @ConditionalOnMissingBean
  ZeoCoreEndpoint zeoCoreEndpoint(ObjectProvider<ExecutionPolicies> policies,
      ObjectProvider<ZeoCoreEndpoint.EffectCounts> effects, ObjectProvider<RecentEvents> recent,
      ObjectProvider<io.zeocore.execution.TargetHealth> targetHealth) {
    return new ZeoCoreEndpoint(policies.getIfAvailable(ExecutionPolicies::empty), effects.getIfAvailable(),
        recent.getIfAvailable(), targetHealth.getIfAvailable(), java.time.Clock.systemUTC());
  }

  /** The effects by state, when the application has ZeoCore's store. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.zeocore.connections.store.StoreIntrospection")
  @ConditionalOnBean(StoreIntrospection.class)
  static class EffectCountsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ZeoCoreEndpoint.EffectCounts zeoCoreEffectCounts(StoreIntrospection store) {
      return () -> {
        Map<String, Long> byState = new LinkedHashMap<>();
        store.effectCountsByState().forEach((state, count) -> byState.put(state.name(), count));
        return byState;
      };
    }
  }
}
