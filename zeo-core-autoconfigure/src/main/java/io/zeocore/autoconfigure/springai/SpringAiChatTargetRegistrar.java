package io.zeocore.autoconfigure.springai;

import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.springai.PolicyChatModel;
import io.zeocore.springai.SpringAiTargets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.ConstructorArgumentValues;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Registers one {@link NamedTarget NamedTarget&lt;Prompt, ChatResponse&gt;} bean per chat-model target: those of
 * {@code zeocore.spring-ai.chat-targets}, or, when none is configured, one per {@code ChatModel} bean. The targets join
 * the {@link io.zeocore.execution.TargetRegistry}, so a policy's {@code attempt-targets: [ollama, openai]} plans them.
 * Then one {@link PolicyChatModel} bean per {@code zeocore.spring-ai.models.<name>}, named {@code <name>} (primary when
 * its {@code primary} is set), running its policy over those targets' models.
 *
 * <p>Spring AOT: each target's and each policy model's bean definition names a static factory method and its arguments (no instance supplier),
 * so that the targets registered while an application is processed ahead of time become part of its generated bean
 * definitions. The registrar itself is left out of them (Spring AOT leaves out every
 * {@link BeanFactoryInitializationAotProcessor} bean; it contributes nothing else): an application started from the
 * generated code has its targets already and registers none a second time. As with the conditions of every
 * auto-configuration, which targets exist is then decided when the application is processed.
 */
final class SpringAiChatTargetRegistrar
    implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanFactoryInitializationAotProcessor {

  static final String BEAN_NAME_PREFIX = "zeoCoreSpringAiChatTarget.";

  private @Nullable Environment environment;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  /** Set before any post-processing: Spring calls {@code EnvironmentAware} first. */
  private Environment environment() {
    return Objects.requireNonNull(environment, "environment");
  }

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
    if (!(registry instanceof ListableBeanFactory beans)) {
      return;
    }
    Map<String, ZeoCoreSpringAiProperties.ChatTarget> configured = Binder.get(environment())
        .bind("zeocore.spring-ai.chat-targets",
            Bindable.mapOf(String.class, ZeoCoreSpringAiProperties.ChatTarget.class))
        .orElse(Map.of());
    Map<String, ZeoCoreSpringAiProperties.ChatTarget> targets = new LinkedHashMap<>(configured);
    if (targets.isEmpty()) {
      for (String beanName : beans.getBeanNamesForType(ChatModel.class, true, false)) {
        Class<?> type = beans.getType(beanName, false);
        if (type != null && PolicyChatModel.class.isAssignableFrom(type)) {
          continue; // a plan is no target: plans do not nest
        }
        ZeoCoreSpringAiProperties.ChatTarget target = new ZeoCoreSpringAiProperties.ChatTarget();
        target.setModel(beanName);
        targets.putIfAbsent(targetId(beanName), target);
      }
    }
    ResolvableType type = ResolvableType.forClassWithGenerics(NamedTarget.class, Prompt.class, ChatResponse.class);
    targets.forEach((targetId, target) -> {
      String property = "zeocore.spring-ai.chat-targets." + targetId + ".model";
      String model = target.getModel();
      if (model == null || model.isBlank()) {
        throw new InvalidConfigurationPropertyValueException(property, model, "name the ChatModel bean to call");
      }
      ExecutionMode mode = target.getExecutionMode() != null ? target.getExecutionMode() : ExecutionMode.LIVE;
      RootBeanDefinition definition = new RootBeanDefinition(ChatTargets.class);
      definition.setUniqueFactoryMethodName("chatTarget");
      definition.setAutowireMode(AbstractBeanDefinition.AUTOWIRE_CONSTRUCTOR); // the BeanFactory argument
      ConstructorArgumentValues arguments = definition.getConstructorArgumentValues();
      arguments.addIndexedArgumentValue(1, targetId);
      arguments.addIndexedArgumentValue(2, model);
      arguments.addIndexedArgumentValue(3, mode);
      arguments.addIndexedArgumentValue(4, property);
      definition.setTargetType(type);
      registry.registerBeanDefinition(BEAN_NAME_PREFIX + targetId, definition);
    });
    Map<String, ZeoCoreSpringAiProperties.PolicyModel> models = Binder.get(environment())
        .bind("zeocore.spring-ai.models", Bindable.mapOf(String.class, ZeoCoreSpringAiProperties.PolicyModel.class))
        .orElse(Map.of());
    Map<String, String> modelBeans = new LinkedHashMap<>();
    targets.forEach((targetId, target) -> modelBeans.put(targetId, target.getModel()));
    models.forEach((name, model) -> {
      String property = "zeocore.spring-ai.models." + name + ".policy";
      String policy = model.getPolicy();
      if (policy == null || policy.isBlank()) {
        throw new InvalidConfigurationPropertyValueException(property, policy, "name the execution policy to run");
      }
      RootBeanDefinition definition = new RootBeanDefinition(ChatTargets.class);
      definition.setUniqueFactoryMethodName("policyModel");
      definition.setAutowireMode(AbstractBeanDefinition.AUTOWIRE_CONSTRUCTOR); // the BeanFactory argument
      ConstructorArgumentValues arguments = definition.getConstructorArgumentValues();
      arguments.addIndexedArgumentValue(1, policy);
      arguments.addIndexedArgumentValue(2, modelBeans);
      arguments.addIndexedArgumentValue(3, property);
      definition.setTargetType(PolicyChatModel.class);
      definition.setPrimary(model.isPrimary());
      registry.registerBeanDefinition(name, definition);
    });
  }

  /**
   * Contributes nothing: the targets' bean definitions are generated with the others. Being an AOT processor keeps
   * this registrar out of the generated bean definitions (see the class documentation).
   */
  @Override
  public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
      ConfigurableListableBeanFactory beanFactory) {
    return null;
  }

  /** The factory of the chat-target and policy-model beans, named by their bean definitions. */
  static final class ChatTargets {

    private ChatTargets() {}

    /**
     * The target {@code targetId}: one call of the {@code ChatModel} bean named {@code model} per attempt, in
     * {@code mode}.
     *
     * @param property the property that named the model, reported when no {@code ChatModel} bean has that name
     */
    static NamedTarget<Prompt, ChatResponse> chatTarget(BeanFactory beans, String targetId, String model,
        ExecutionMode mode, String property) {
      if (!beans.containsBean(model) || !beans.isTypeMatch(model, ChatModel.class)) {
        throw new InvalidConfigurationPropertyValueException(property, model, "no ChatModel bean has this name");
      }
      return SpringAiTargets.namedChatTarget(targetId, beans.getBean(model, ChatModel.class)).withExecutionMode(mode);
    }

    /**
     * The policy-backed model running {@code policyName} over the chat models its plan names, by target id
     * ({@code modelBeans}: target id to {@code ChatModel} bean name).
     *
     * @param property the property that named the policy, reported when it cannot run
     */
    static PolicyChatModel policyModel(BeanFactory beans, String policyName, Map<String, String> modelBeans,
        String property) {
      ExecutionPolicy policy = beans.getBean(ExecutionPolicies.class).find(policyName).orElseThrow(() ->
          new InvalidConfigurationPropertyValueException(property, policyName, "no execution policy has this name"));
      PolicyChatModel.Builder builder = PolicyChatModel.builder().runner(beans.getBean(ResilientRunner.class))
          .policy(policy);
      for (String targetId : new LinkedHashSet<>(policy.attemptTargets())) {
        String model = modelBeans.get(targetId);
        if (model == null) {
          throw new InvalidConfigurationPropertyValueException(property, policyName, "policy '" + policyName
              + "' plans '" + targetId + "', which is no chat-model target (chat-model targets: "
              + String.join(", ", modelBeans.keySet()) + ")");
        }
        // as for the chat targets: the starter's OneCallOpenAiHttpClientCustomizer makes Spring AI's models one call
        builder.oneCallModel(targetId, beans.getBean(model, ChatModel.class));
      }
      return builder.build();
    }
  }

  /** "ollamaChatModel" → "ollama", "openAiChatModel" → "openai". */
  static String targetId(String beanName) {
    String base = beanName.endsWith("ChatModel") && beanName.length() > "ChatModel".length()
        ? beanName.substring(0, beanName.length() - "ChatModel".length())
        : beanName;
    return base.toLowerCase(Locale.ROOT);
  }
}
