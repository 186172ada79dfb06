package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.NamedTarget;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers one {@link NamedTarget} bean per {@link ZeoCoreTarget @ZeoCoreTarget} method of the application's beans,
 * before any bean is created, so that the targets join the {@link io.zeocore.execution.TargetRegistry} and the
 * start-up check of planned ids like declared {@code NamedTarget} beans.
 */
final class TargetMethods implements BeanDefinitionRegistryPostProcessor {

  static final String BEAN_NAME_PREFIX = "zeoCoreTargetMethod.";

  private static final boolean REACTOR_PRESENT =
      ClassUtils.isPresent("reactor.core.publisher.Mono", TargetMethods.class.getClassLoader());

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
    if (!(registry instanceof ConfigurableListableBeanFactory beans)) {
      return;
    }
    Map<String, String> declaredBy = new LinkedHashMap<>();
    for (String beanName : registry.getBeanDefinitionNames()) {
      BeanDefinition definition = registry.getBeanDefinition(beanName);
      if (beanName.startsWith(BEAN_NAME_PREFIX) || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE
          || definition.isAbstract()) {
        continue;
      }
      Class<?> type = typeOf(beans, beanName);
      if (type == null || type.getName().startsWith("org.springframework.")) {
        continue;
      }
      Map<Method, ZeoCoreTarget> methods = MethodIntrospector.selectMethods(ClassUtils.getUserClass(type),
          (MethodIntrospector.MetadataLookup<ZeoCoreTarget>) method ->
              AnnotatedElementUtils.findMergedAnnotation(method, ZeoCoreTarget.class));
      methods.forEach((method, annotation) -> {
        String where = beanName + " (" + method.getDeclaringClass().getName() + "." + method.getName() + ")";
        String previous = declaredBy.putIfAbsent(annotation.value(), where);
        if (previous != null) {
          throw new IllegalStateException("@ZeoCoreTarget(\"" + annotation.value() + "\") is declared twice: on "
              + previous + " and on " + where);
        }
        Shape shape = Shape.of(method, annotation);
        RootBeanDefinition target = new RootBeanDefinition(NamedTarget.class);
        target.setTargetType(ResolvableType.forClassWithGenerics(NamedTarget.class, shape.inputType(),
            shape.responseType()));
        target.setInstanceSupplier(() -> shape.target(lazily(beans, beanName)));
        registry.registerBeanDefinition(BEAN_NAME_PREFIX + annotation.value(), target);
      });
    }
  }

  private static @Nullable Class<?> typeOf(ListableBeanFactory beans, String beanName) {
    try {
      return beans.getType(beanName, false);
    } catch (RuntimeException notResolvable) {
      return null;
    }
  }

  /** The bean, looked up at the first call (and kept), so that it may itself inject what needs the targets. */
  private static Supplier<Object> lazily(BeanFactory beans, String beanName) {
    return new Supplier<>() {
      private volatile @Nullable Object bean;

      @Override
      public Object get() {
        Object found = bean;
        if (found == null) {
          found = beans.getBean(beanName);
          bean = found;
        }
        return found;
      }
    };
  }

  /**
   * What a {@code @ZeoCoreTarget} method takes and returns, checked at start-up.
   *
   * @param inputIndex position of the run's input among the parameters
   * @param contextIndex position of the {@link AttemptContext}, or -1
   * @param kind how the return value answers
   */
  record Shape(Method method, ZeoCoreTarget annotation, Class<?> inputType, Class<?> responseType, int inputIndex,
      int contextIndex, Kind kind) {

    enum Kind { VALUE, STAGE, MONO }

    static Shape of(Method method, ZeoCoreTarget annotation) {
      Class<?>[] parameters = method.getParameterTypes();
      int contextIndex = -1;
      int inputIndex = -1;
      for (int i = 0; i < parameters.length; i++) {
        if (parameters[i] == AttemptContext.class && contextIndex < 0) {
          contextIndex = i;
        } else if (inputIndex < 0) {
          inputIndex = i;
        } else {
          inputIndex = -2;
        }
      }
      if (inputIndex < 0) {
        throw invalid(method, "must take exactly one input parameter (and optionally an AttemptContext)");
      }
      if (Modifier.isStatic(method.getModifiers())) {
        throw invalid(method, "must not be static");
      }
      Class<?> returned = method.getReturnType();
      Kind kind = Kind.VALUE;
      Class<?> response = returned;
      if (CompletionStage.class.isAssignableFrom(returned)) {
        kind = Kind.STAGE;
        response = ResolvableType.forMethodReturnType(method).as(CompletionStage.class).getGeneric(0).resolve();
      } else if (REACTOR_PRESENT && MonoStages.isMono(returned)) {
        kind = Kind.MONO;
        response = ResolvableType.forMethodReturnType(method).getGeneric(0).resolve();
      }
      if (response == null || response == void.class || response == Void.class || response == Object.class
          && kind != Kind.VALUE) {
        throw invalid(method, "must return its response (a value, a CompletionStage<T> or a Mono<T> with T known)");
      }
      return new Shape(method, annotation, ClassUtils.resolvePrimitiveIfNecessary(parameters[inputIndex]),
          ClassUtils.resolvePrimitiveIfNecessary(response), inputIndex, contextIndex, kind);
    }

    private static IllegalStateException invalid(Method method, String rule) {
      return new IllegalStateException("@ZeoCoreTarget method " + method.getDeclaringClass().getName() + "."
          + method.getName() + " " + rule);
    }

    // NullAway: a target method may return null, which the runner keeps as the value, as it does any handler's
    @SuppressWarnings({"unchecked", "rawtypes", "NullAway"})
    NamedTarget<?, ?> target(Supplier<Object> bean) {
      ReflectionUtils.makeAccessible(method);
      NamedTarget target = switch (kind) {
        case VALUE -> NamedTarget.of(annotation.value(), (Class) inputType, (Class) responseType,
            (input, context) -> invoke(bean.get(), input, context));
        case STAGE -> NamedTarget.ofAsync(annotation.value(), (Class) inputType, (Class) responseType,
            (input, context) -> stage(invoke(bean.get(), input, context)));
        case MONO -> NamedTarget.ofAsync(annotation.value(), (Class) inputType, (Class) responseType,
            (input, context) -> MonoStages.subscribe(invoke(bean.get(), input, context)));
      };
      return target.withExecutionMode(annotation.executionMode());
    }

    private @Nullable Object invoke(Object bean, Object input, AttemptContext context) throws Exception {
      Object[] arguments = new Object[method.getParameterCount()];
      arguments[inputIndex] = input;
      if (contextIndex >= 0) {
        arguments[contextIndex] = context;
      }
      Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
      ReflectionUtils.makeAccessible(invocable);
      try {
        return invocable.invoke(bean, arguments);
      } catch (InvocationTargetException thrown) {
        Throwable cause = thrown.getCause();
        if (cause instanceof Error error) {
          throw error;
        }
        throw cause instanceof Exception exception ? exception : thrown;
      }
    }

    private static CompletionStage<?> stage(@Nullable Object returned) {
      return Objects.requireNonNullElseGet((CompletionStage<?>) returned,
          () -> CompletableFuture.failedFuture(new NullPointerException("the target returned no stage")));
    }
  }
}
