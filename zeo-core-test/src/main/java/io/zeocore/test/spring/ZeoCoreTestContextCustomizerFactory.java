package io.zeocore.test.spring;

import io.zeocore.execution.TimeSource;
import io.zeocore.test.VirtualTime;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Reads {@link ZeoCoreTest} and, before the test's context refreshes, registers its beans: the {@link VirtualTime}
 * (the starter's runner and target health pick up a {@code TimeSource} bean), the {@link ScriptedTargets} (which also
 * post-processes the target registry) and the {@link CapturedEvents} listener. Two test classes with the same
 * annotation values share a cached context.
 */
final class ZeoCoreTestContextCustomizerFactory implements ContextCustomizerFactory {

  @Override
  public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
      List<ContextConfigurationAttributes> configurationAttributes) {
    ZeoCoreTest test = TestContextAnnotationUtils.findMergedAnnotation(testClass, ZeoCoreTest.class);
    return test == null ? null : new Customizer(new TreeSet<>(List.of(test.scripted())), test.virtualTime());
  }

  /** The beans of one {@link ZeoCoreTest}; equal values, equal customizers (so the context is cached). */
  private record Customizer(Set<String> scripted, boolean virtualTime) implements ContextCustomizer {

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
      ConfigurableListableBeanFactory beans = context.getBeanFactory();
      TimeSource time = TimeSource.system();
      if (virtualTime) {
        VirtualTime virtual = new VirtualTime();
        beans.registerSingleton("zeoCoreVirtualTime", virtual);
        time = virtual;
      }
      beans.registerSingleton("zeoCoreScriptedTargets", new ScriptedTargets(scripted, time));
      CapturedEvents events = new CapturedEvents();
      beans.registerSingleton("zeoCoreCapturedEvents", events);
      context.addApplicationListener(events);
    }
  }
}
