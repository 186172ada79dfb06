package io.zeocore.execution;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Targets declared once, by id, so that a policy's plan alone decides which run and in what order: reordering
 * fallbacks or adding one is a configuration change. Immutable and thread-safe.
 *
 * <p>A policy <em>uses the registry</em> when at least one of its planned ids is registered; such a policy is expected
 * to have every planned id registered ({@link #missing}), which the Spring starter checks at start-up.
 */
public final class TargetRegistry {

  private static final TargetRegistry EMPTY = new TargetRegistry(Map.of());

  private final Map<String, NamedTarget<?, ?>> targets;

  private TargetRegistry(Map<String, NamedTarget<?, ?>> targets) {
    this.targets = targets;
  }

  /**
   * A registry of {@code targets}, in their order.
   *
   * @throws IllegalArgumentException when two targets share an id
   */
  public static TargetRegistry of(Collection<? extends NamedTarget<?, ?>> targets) {
    Map<String, NamedTarget<?, ?>> byId = new LinkedHashMap<>();
    for (NamedTarget<?, ?> target : targets) {
      if (byId.putIfAbsent(target.targetId(), target) != null) {
        throw new IllegalArgumentException("two registered targets share the id '" + target.targetId() + "'");
      }
    }
    return byId.isEmpty() ? EMPTY : new TargetRegistry(Collections.unmodifiableMap(byId));
  }

  /** No targets. */
  public static TargetRegistry empty() {
    return EMPTY;
  }

  /** The registered ids, in registration order. */
  public Set<String> ids() {
    return targets.keySet();
  }

  /** The target registered under {@code targetId}, if any. */
  public Optional<NamedTarget<?, ?>> find(String targetId) {
    return Optional.ofNullable(targets.get(targetId));
  }

  /** Whether at least one of the policy's planned ids is registered. */
  public boolean isUsedBy(ExecutionPolicy policy) {
    return policy.attemptTargets().stream().anyMatch(targets::containsKey);
  }

  /** The policy's planned ids that are not registered, each once, in plan order. */
  public List<String> missing(ExecutionPolicy policy) {
    List<String> missing = new ArrayList<>();
    for (String id : policy.attemptTargets()) {
      if (!targets.containsKey(id) && !missing.contains(id)) {
        missing.add(id);
      }
    }
    return missing;
  }

  /**
   * The targets of one run of {@code policy} with {@code input}: every planned id that is registered, bound to the
   * input. A planned id that is not registered is left out, so the runner refuses the run with
   * {@code ZEO_EXEC_TARGET_UNAVAILABLE} naming it.
   *
   * @throws IllegalArgumentException when a planned target takes another input type or returns another response type
   */
  @SuppressWarnings("unchecked")
  public <I, T> Map<String, SyncExecutionTarget<T>> bind(ExecutionPolicy policy, I input, Class<T> responseType) {
    Map<String, SyncExecutionTarget<T>> bound = new LinkedHashMap<>();
    for (String id : policy.attemptTargets()) {
      NamedTarget<?, ?> target = targets.get(id);
      if (target == null || bound.containsKey(id)) {
        continue;
      }
      if (target.responseType() != responseType) {
        throw new IllegalArgumentException("registered target '" + id + "' returns "
            + target.responseType().getName() + ", not " + responseType.getName());
      }
      if (input != null && !target.inputType().isInstance(input)) {
        throw new IllegalArgumentException("registered target '" + id + "' takes " + target.inputType().getName()
            + ", not " + input.getClass().getName());
      }
      bound.put(id, ((NamedTarget<I, T>) target).bind(input));
    }
    return bound;
  }

  /**
   * Whether every planned id that is registered is an {@linkplain NamedTarget#isAsync() async} target (and at least
   * one is registered): such a plan runs with {@link #bindAsync} and holds no thread while its targets work.
   */
  public boolean isAsyncPlan(ExecutionPolicy policy) {
    boolean any = false;
    for (String id : policy.attemptTargets()) {
      NamedTarget<?, ?> target = targets.get(id);
      if (target != null) {
        if (!target.isAsync()) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  /**
   * The async targets of one run of {@code policy} with {@code input}; see {@link #bind}.
   *
   * @throws IllegalArgumentException when a planned target takes another input type, returns another response type
   *     or is synchronous ({@link #isAsyncPlan} is false)
   */
  @SuppressWarnings("unchecked")
  public <I, T> Map<String, AsyncExecutionTarget<T>> bindAsync(ExecutionPolicy policy, I input,
      Class<T> responseType) {
    Map<String, AsyncExecutionTarget<T>> bound = new LinkedHashMap<>();
    for (String id : policy.attemptTargets()) {
      NamedTarget<?, ?> target = targets.get(id);
      if (target == null || bound.containsKey(id)) {
        continue;
      }
      check(id, target, input, responseType);
      if (!target.isAsync()) {
        throw new IllegalArgumentException("registered target '" + id + "' is synchronous; an async run of policy '"
            + policy.name() + "' needs every planned target to be async");
      }
      bound.put(id, ((NamedTarget<I, T>) target).bindAsync(input));
    }
    return bound;
  }

  private static void check(String id, NamedTarget<?, ?> target, @Nullable Object input, Class<?> responseType) {
    if (target.responseType() != responseType) {
      throw new IllegalArgumentException("registered target '" + id + "' returns "
          + target.responseType().getName() + ", not " + responseType.getName());
    }
    if (input != null && !target.inputType().isInstance(input)) {
      throw new IllegalArgumentException("registered target '" + id + "' takes " + target.inputType().getName()
          + ", not " + input.getClass().getName());
    }
  }

  @Override
  public String toString() {
    return "TargetRegistry" + targets.keySet();
  }
}
