package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.internal.Suggestions;
import io.zeocore.autoconfigure.subprocess.SubprocessProviders;
import io.zeocore.execution.AttemptListener;
import io.zeocore.execution.ExceptionClassifier;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.MdcAttemptListener;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.TargetHealthStore;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.TimeSource;
import io.zeocore.execution.ZeoCoreExecutions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for ZeoCore's bounded
 * execution: the {@link ExecutionPolicies} bound from {@code zeocore.execution.*}, the {@link TargetRegistry} of the
 * application's {@link NamedTarget} beans, a shared {@link ResilientRunner} whose runs are all published as events
 * ({@link ExecutionEventPublisher}) and classified by the {@link ExceptionClassifier} bean when there is one, and
 * {@link ZeoCoreExecutions}, the {@link TargetHealth} its runs consult (both on the {@link TimeSource} bean when the
 * application, or a test's virtual time, defines one), with {@link ZeoCoreTarget @ZeoCoreTarget} bean methods registered as targets and, when
 * reactor-core is on the class path, {@link ZeoCoreReactiveExecutions}. Switched off by {@code zeocore.execution.enabled=false}; each bean backs off when the
 * application defines its own.
 *
 * <p>The policies and the targets they plan are checked eagerly (also under lazy initialization) so that an invalid
 * policy, an unknown exception class or a planned id no registered target has stops start-up with a report naming the
 * property and the rule. A policy's targets are registered by default ({@link NamedTarget} beans, Spring AI chat
 * targets, subprocess providers), so every planned id must be one of theirs; a policy whose targets are passed to
 * each run says so with {@code targets: call-time} (see {@link TargetSource}).
 */
@AutoConfiguration
@ConditionalOnClass(ResilientRunner.class)
@ConditionalOnBooleanProperty(name = "zeocore.execution.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZeoCoreExecutionProperties.class)
public final class ZeoCoreExecutionAutoConfiguration {

  @Bean
  @Lazy(false)
  @ConditionalOnMissingBean
  ExecutionPolicies zeoCoreExecutionPolicies(ZeoCoreExecutionProperties properties, Environment environment,
      ResourceLoader resourceLoader) {
    ClassLoader classLoader = resourceLoader.getClassLoader();
    return ExecutionPolicyResolver.resolve(properties, ConfiguredValues.of(environment),
        classLoader != null ? classLoader : ZeoCoreExecutionAutoConfiguration.class.getClassLoader());
  }

  @Bean
  @ConditionalOnMissingBean
  ExecutionEventPublisher zeoCoreExecutionEventPublisher(ApplicationEventPublisher events) {
    return new ExecutionEventPublisher(events);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBooleanProperty(name = "zeocore.execution.log-correlation", matchIfMissing = true)
  MdcAttemptListener zeoCoreMdcAttemptListener() {
    return new MdcAttemptListener();
  }

  /**
   * Target cooldowns for every run of the runner bean, from {@code zeocore.execution.target-health.*} and
   * {@code zeocore.execution.targets.<id>.cooldown.*}; shared through ZeoCore's store with {@code sharing: store}.
   * Closed with the context (its pending store writes flushed).
   */
  @Bean
  @Lazy(false)
  @ConditionalOnMissingBean
  @ConditionalOnBooleanProperty(name = "zeocore.execution.target-health.enabled", matchIfMissing = true)
  TargetHealth zeoCoreTargetHealth(ZeoCoreExecutionProperties properties, Environment environment,
      ExecutionPolicies policies, TargetRegistry targets, ObjectProvider<SubprocessProviders> providers,
      ObjectProvider<TargetHealthStore> store, ObjectProvider<TimeSource> time, ApplicationEventPublisher events) {
    Set<String> known = new java.util.TreeSet<>(targets.ids());
    SubprocessProviders subprocessProviders = providers.getIfAvailable();
    if (subprocessProviders != null) {
      known.addAll(subprocessProviders.ids());
    }
    policies.asMap().values().forEach(policy -> known.addAll(policy.attemptTargets()));
    return TargetHealthConfiguration.create(properties, ConfiguredValues.of(environment), known,
        store.getIfAvailable(), time.getIfAvailable(TimeSource::system), events);
  }

  @Bean
  @ConditionalOnMissingBean
  ResilientRunner zeoCoreResilientRunner(ObjectProvider<ExceptionClassifier> classifier,
      ObjectProvider<AttemptListener> listeners, ObjectProvider<ResilientRunnerCustomizer> customizers,
      ObjectProvider<TargetHealth> targetHealth, ObjectProvider<TimeSource> time) {
    ResilientRunner.Builder runner = ResilientRunner.builder()
        .exceptionClassifier(classifier.getIfAvailable(ExceptionClassifier::defaults))
        .targetHealth(targetHealth.getIfAvailable());
    time.ifAvailable(runner::timeSource); // a test's virtual time; real time otherwise
    listeners.orderedStream().forEach(runner::listener);
    customizers.orderedStream().forEach(customizer -> customizer.customize(runner));
    return runner.build();
  }

  /** The {@link ZeoCoreTarget @ZeoCoreTarget} methods of the application's beans, as {@link NamedTarget} beans. */
  @Bean
  static TargetMethods zeoCoreTargetMethods() {
    return new TargetMethods();
  }

  @Bean
  @ConditionalOnMissingBean
  TargetRegistry zeoCoreTargetRegistry(ObjectProvider<NamedTarget<?, ?>> targets) {
    return TargetRegistry.of(targets.orderedStream().collect(Collectors.toList()));
  }

  @Bean
  @Lazy(false)
  @ConditionalOnMissingBean
  ZeoCoreExecutions zeoCoreExecutions(ResilientRunner runner, ExecutionPolicies policies,
      ApplicationEventPublisher events, TargetRegistry targets, ObjectProvider<SubprocessProviders> providers,
      ZeoCoreExecutionProperties properties, Environment environment) {
    SubprocessProviders subprocessProviders = providers.getIfAvailable();
    checkPlannedTargets(policies, targets, subprocessProviders != null ? subprocessProviders.ids() : Set.of(),
        ExecutionPolicyResolver.plannedTargets(properties), ConfiguredValues.of(environment));
    return new ZeoCoreExecutions(publishing(runner, events), policies, targets);
  }

  /** The Mono entry point, when reactor-core is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "reactor.core.publisher.Mono")
  static class ReactiveExecutions {

    @Bean
    @ConditionalOnMissingBean
    ZeoCoreReactiveExecutions zeoCoreReactiveExecutions(ZeoCoreExecutions executions) {
      return new ZeoCoreReactiveExecutions(executions);
    }
  }

  /**
   * {@code runner}, publishing every run to {@code events}: the auto-configured runner already does; a runner bean of
   * the application's own gets an {@link ExecutionEventPublisher} added, so runs through {@link ZeoCoreExecutions}
   * are never silent.
   */
  static ResilientRunner publishing(ResilientRunner runner, ApplicationEventPublisher events) {
    boolean publishes = runner.listeners().stream()
        .anyMatch(listener -> listener instanceof ExecutionEventPublisher publisher && publisher.publishesTo(events));
    return publishes ? runner : runner.toBuilder().listener(new ExecutionEventPublisher(events)).build();
  }

  /**
   * Every policy whose targets are {@link TargetSource#REGISTERED registered} (the default) must plan ids that a
   * registered target ({@link NamedTarget} bean) or a subprocess provider has. A policy of an application-defined
   * {@link ExecutionPolicies} bean (not in {@code planned}) is checked when it plans some registered id.
   *
   * @param providerIds the ids of the configured subprocess providers
   * @param planned each configured policy's target source and the property of its attempt-targets
   */
  static void checkPlannedTargets(ExecutionPolicies policies, TargetRegistry targets, Set<String> providerIds,
      Map<String, ExecutionPolicyResolver.PlannedTargets> planned, ConfiguredValues written) {
    Set<String> known = new LinkedHashSet<>(targets.ids());
    known.addAll(providerIds);
    for (Map.Entry<String, ExecutionPolicy> entry : policies.asMap().entrySet()) {
      String name = entry.getKey();
      ExecutionPolicy policy = entry.getValue();
      ExecutionPolicyResolver.PlannedTargets plan = planned.get(name);
      if (plan == null ? policy.attemptTargets().stream().noneMatch(known::contains)
          : plan.source() == TargetSource.CALL_TIME) {
        continue;
      }
      List<String> missing = policy.attemptTargets().stream().filter(id -> !known.contains(id)).distinct().toList();
      if (missing.isEmpty()) {
        continue;
      }
      String property = plan != null ? plan.property() : ExecutionPolicyResolver.POLICIES + name + ".attempt-targets";
      ConfiguredValues.Written value = written.find(property);
      throw new InvalidExecutionPolicyPropertyException(name, property,
          value.value() != null ? value.value() : policy.attemptTargets().toString(), value.origin(),
          unknownTargetsRule(name, missing, known));
    }
  }

  private static String unknownTargetsRule(String policyName, List<String> missing, Set<String> known) {
    StringBuilder rule = new StringBuilder("no registered target has the id ")
        .append(missing.stream().map(id -> "'" + id + "'").collect(Collectors.joining(", ")));
    List<String> suggestions = new ArrayList<>();
    for (String id : missing) {
      String nearest = Suggestions.nearest(id, known);
      if (nearest != null) {
        suggestions.add("'" + nearest + "'" + (missing.size() > 1 ? " for '" + id + "'" : ""));
      }
    }
    if (!suggestions.isEmpty()) {
      rule.append("; did you mean ").append(String.join(", ", suggestions)).append('?');
    }
    rule.append(" (registered: ").append(known.isEmpty() ? "none" : String.join(", ", known)).append("). ")
        .append("Targets are registered as NamedTarget beans, Spring AI chat targets and subprocess providers "
            + "(zeocore.subprocess.providers). Correct the plan or register the target; if this policy's targets "
            + "are passed to each run (ZeoCoreExecutions.run(name, targets)), set ")
        .append(ExecutionPolicyResolver.POLICIES).append(policyName).append(".targets: call-time");
    return rule.toString();
  }
}
