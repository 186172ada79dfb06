package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ResilientRunner;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for ZeoCore's bounded
 * execution: the {@link ExecutionPolicies} bound from {@code zeocore.execution.*}, a shared {@link ResilientRunner} and
 * the event-publishing {@link ZeoCoreExecutions}. Switched off by {@code zeocore.execution.enabled=false}; each bean
 * backs off when the application defines its own.
 *
 * <p>The policies are resolved eagerly (also under lazy initialization) so that an invalid policy stops start-up with
 * a report naming the property and the rule.
 */
@AutoConfiguration
@ConditionalOnClass(ResilientRunner.class)
@ConditionalOnBooleanProperty(name = "zeocore.execution.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZeoCoreExecutionProperties.class)
public final class ZeoCoreExecutionAutoConfiguration {

  @Bean
  @Lazy(false)
  @ConditionalOnMissingBean
  ExecutionPolicies zeoCoreExecutionPolicies(ZeoCoreExecutionProperties properties, Environment environment) {
    return ExecutionPolicyResolver.resolve(properties, ConfiguredValues.of(environment));
  }

  @Bean
  @ConditionalOnMissingBean
  ResilientRunner zeoCoreResilientRunner() {
    return ResilientRunner.create();
  }

  @Bean
  @ConditionalOnMissingBean
  ZeoCoreExecutions zeoCoreExecutions(ResilientRunner runner, ExecutionPolicies policies,
      ApplicationEventPublisher events) {
    return new ZeoCoreExecutions(runner, policies, events);
  }
}
