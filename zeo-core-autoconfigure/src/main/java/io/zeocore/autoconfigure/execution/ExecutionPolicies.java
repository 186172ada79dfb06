package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.internal.ConfiguredNames;
import io.zeocore.execution.ExecutionPolicy;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The application's named {@link ExecutionPolicy ExecutionPolicies}, in configuration order. Immutable and
 * thread-safe.
 *
 * <p>The auto-configured bean is bound from {@code zeocore.execution.policies.<name>.*} when the application starts:
 * every policy is resolved and validated then, so a bad policy stops start-up instead of failing its first call.
 * Declare your own bean of this type (for example with {@link #of(Map)}) to replace it.
 */
public final class ExecutionPolicies {

  private static final ExecutionPolicies EMPTY = new ExecutionPolicies(Map.of());

  private final Map<String, ExecutionPolicy> policies;

  private ExecutionPolicies(Map<String, ExecutionPolicy> policies) {
    this.policies = policies;
  }

  /**
   * Policies from a map of name to policy; iteration keeps the map's order. Each policy carries the name it is
   * registered under ({@link ExecutionPolicy#name()}), which logs, events and metrics use.
   *
   * @throws NullPointerException for a null name or policy
   */
  public static ExecutionPolicies of(Map<String, ExecutionPolicy> policies) {
    Map<String, ExecutionPolicy> copy = new LinkedHashMap<>();
    policies.forEach((name, policy) -> {
      Objects.requireNonNull(name, "policy name");
      Objects.requireNonNull(policy, () -> "policy '" + name + "'");
      copy.put(name, policy.name().equals(name) ? policy : policy.withName(name));
    });
    return copy.isEmpty() ? EMPTY : new ExecutionPolicies(Collections.unmodifiableMap(copy));
  }

  /** No policies. */
  public static ExecutionPolicies empty() {
    return EMPTY;
  }

  /**
   * The policy called {@code name}.
   *
   * @throws IllegalArgumentException naming the configured policies when there is none called {@code name}
   */
  public ExecutionPolicy get(String name) {
    ExecutionPolicy policy = policies.get(name);
    if (policy == null) {
      throw ConfiguredNames.notConfigured("execution policy", name, policies.keySet(), "zeocore.execution.policies");
    }
    return policy;
  }

  /** The policy called {@code name}, if there is one. */
  public Optional<ExecutionPolicy> find(String name) {
    return Optional.ofNullable(policies.get(name));
  }

  /** The policy names in configuration order. */
  public Set<String> names() {
    return policies.keySet();
  }

  /** Every policy by name, in configuration order (unmodifiable). */
  public Map<String, ExecutionPolicy> asMap() {
    return policies;
  }

  @Override
  public String toString() {
    return "ExecutionPolicies" + policies.keySet();
  }
}
