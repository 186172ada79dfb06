package io.zeocore.autoconfigure.actuate;

import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.ExecutionPolicies;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.connections.store.StoreIntrospection;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the {@code zeocore}
 * actuator endpoint. Active when the actuator is on the classpath and the endpoint is available (enabled and exposed,
 * e.g. {@code management.endpoints.web.exposure.include=zeocore}).
 */
@AutoConfiguration(after = {EndpointAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class,
    ZeoCoreConnectionsAutoConfiguration.class})
@ConditionalOnClass({Endpoint.class, EndpointAutoConfiguration.class})
@ConditionalOnAvailableEndpoint(ZeoCoreEndpoint.class)
public final class ZeoCoreEndpointAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ZeoCoreEndpoint zeoCoreEndpoint(ObjectProvider<ExecutionPolicies> policies,
      ObjectProvider<StoreIntrospection> store) {
    return new ZeoCoreEndpoint(policies.getIfAvailable(ExecutionPolicies::empty), store.getIfAvailable());
  }
}
