package io.zeocore.test.spring;

import io.zeocore.execution.TargetHealth;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Before each test of a {@link ZeoCoreTest} class: empties the scripts, forgets the captured events and the target
 * health's cooldowns, so that tests sharing one cached context start alike.
 */
final class ZeoCoreTestExtension implements BeforeEachCallback {

  @Override
  public void beforeEach(ExtensionContext extension) {
    ApplicationContext context = SpringExtension.getApplicationContext(extension);
    context.getBeanProvider(ScriptedTargets.class).ifAvailable(ScriptedTargets::reset);
    context.getBeanProvider(CapturedEvents.class).ifAvailable(CapturedEvents::clear);
    context.getBeanProvider(TargetHealth.class).ifAvailable(TargetHealth::reset);
  }
}
