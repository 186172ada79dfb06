package io.zeocore.test.spring;

import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.TimeSource;
import io.zeocore.test.ScriptedTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * The scripts of a {@link ZeoCoreTest}'s scripted targets, by id: {@code scripted.target("ollama",
 * ChatResponse.class).rateLimited(Duration.ofSeconds(30))}. Also the post-processor that puts them in the
 * application's {@link TargetRegistry} in place of the real targets of the same ids (the same input and response
 * types, so that the application's policies and entry points work unchanged).
 */
public final class ScriptedTargets implements BeanPostProcessor {

  private final Set<String> ids;
  private final TimeSource time;
  private final Map<String, ScriptedTarget<?>> scripts = new LinkedHashMap<>();

  ScriptedTargets(Set<String> ids, TimeSource time) {
    this.ids = Set.copyOf(ids);
    this.time = time;
  }

  /**
   * The script of {@code targetId}, whose answers are {@code responseType}.
   *
   * @throws IllegalArgumentException when the id is not one of {@link ZeoCoreTest#scripted()}, or the registered
   *     target answers another type
   */
  @SuppressWarnings("unchecked")
  public synchronized <T> ScriptedTarget<T> target(String targetId, Class<T> responseType) {
    ScriptedTarget<?> script = scripts.get(targetId);
    if (script == null) {
      throw new IllegalArgumentException("'" + targetId + "' is not scripted here: name it in @ZeoCoreTest(scripted"
          + " = ...), and register a target with that id (scripted: " + String.join(", ", ids) + ")");
    }
    if (script.responseType() != responseType) {
      throw new IllegalArgumentException("target '" + targetId + "' answers " + script.responseType().getName()
          + ", not " + responseType.getName());
    }
    return (ScriptedTarget<T>) script;
  }

  /** Empties every script and forgets every call. */
  public synchronized void reset() {
    scripts.values().forEach(ScriptedTarget::reset);
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (!(bean instanceof TargetRegistry registry) || ids.isEmpty()) {
      return bean;
    }
    List<String> missing = ids.stream().filter(id -> registry.find(id).isEmpty()).sorted().toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("@ZeoCoreTest scripts " + missing + " but the application registers no target"
          + " with " + (missing.size() == 1 ? "that id" : "those ids") + " (registered: " + registry.ids() + ")");
    }
    List<NamedTarget<?, ?>> targets = new ArrayList<>();
    for (String id : registry.ids()) {
      NamedTarget<?, ?> real = registry.find(id).orElseThrow();
      targets.add(ids.contains(id) ? scripted(real) : real);
    }
    return TargetRegistry.of(targets);
  }

  private synchronized <I, T> NamedTarget<I, T> scripted(NamedTarget<I, T> real) {
    ScriptedTarget<T> script = ScriptedTarget.of(real.targetId(), real.responseType(), time);
    scripts.put(real.targetId(), script);
    return NamedTarget.of(real.targetId(), real.inputType(), real.responseType(),
        (input, context) -> script.call(context)).withExecutionMode(real.executionMode());
  }
}
