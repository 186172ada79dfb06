package io.zeocore.test.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * Tests an application's plans in its own Spring context (next to {@code @SpringBootTest}) without waiting and
 * without its providers:
 *
 * <ul>
 *   <li>the registered targets named in {@link #scripted()} are replaced, by id, with {@link ScriptedTargets scripted
 *       ones} (same id, same types; a test writes their script before it runs);</li>
 *   <li>the starter's runner and target health run on a {@link io.zeocore.test.VirtualTime} bean
 *       ({@link #virtualTime()}), so backoff, deadlines and cooldowns pass at once;</li>
 *   <li>ZeoCore's events (attempts, runs, target health, effects) are kept in a {@link CapturedEvents} bean.</li>
 * </ul>
 * Before each test the scripts, the captured events and the target health's cooldowns are reset, so tests that share
 * one cached context do not see one another. Inject {@code ScriptedTargets}, {@code CapturedEvents} and
 * {@code VirtualTime} into the test.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ZeoCoreTestExtension.class)
@ContextCustomizerFactories(ZeoCoreTestContextCustomizerFactory.class)
public @interface ZeoCoreTest {

  /** Ids of registered targets ({@code NamedTarget} beans, Spring AI chat targets) to replace with scripts. */
  String[] scripted() default {};

  /** Whether the runner and target health run on virtual time (the default) or on real time. */
  boolean virtualTime() default true;
}
