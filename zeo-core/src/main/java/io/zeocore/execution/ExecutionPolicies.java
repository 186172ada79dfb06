package io.zeocore.execution;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The application's named {@link ExecutionPolicy ExecutionPolicies}, in configuration order. Immutable and
 * thread-safe.
 *
 * <p>Build them with {@link #of(Map)} in plain Java. The Spring Boot starter's bean is bound from
 * {@code zeocore.execution.policies.<name>.*} when the application starts: every policy is resolved and validated
 * then, so a bad policy stops start-up instead of failing its first call; declare your own bean of this type to
 * replace it.
 */
public final class ExecutionPolicies {

  private static final ExecutionPolicies EMPTY = new ExecutionPolicies(Map.of(), null);

  private final Map<String, ExecutionPolicy> policies;
  private final @Nullable String definedUnder;

  private ExecutionPolicies(Map<String, ExecutionPolicy> policies, @Nullable String definedUnder) {
    this.policies = policies;
    this.definedUnder = definedUnder;
  }

  /**
   * Policies from a map of name to policy; iteration keeps the map's order. Each policy carries the name it is
   * registered under ({@link ExecutionPolicy#name()}), which logs, events and metrics use.
   *
   * @throws NullPointerException for a null name or policy
   */
  public static ExecutionPolicies of(Map<String, ExecutionPolicy> policies) {
    return of(policies, null);
  }

  /**
   * Policies from a map of name to policy, bound from the configuration map property {@code definedUnder} (for
   * example {@code zeocore.execution.policies}): a lookup of a name that is not there says where to define it.
   *
   * @throws NullPointerException for a null name or policy
   */
  public static ExecutionPolicies of(Map<String, ExecutionPolicy> policies, @Nullable String definedUnder) {
    Map<String, ExecutionPolicy> copy = new LinkedHashMap<>();
    policies.forEach((name, policy) -> {
      Objects.requireNonNull(name, "policy name");
      Objects.requireNonNull(policy, () -> "policy '" + name + "'");
      copy.put(name, policy.name().equals(name) ? policy : policy.withName(name));
    });
    return copy.isEmpty() && definedUnder == null ? EMPTY
        : new ExecutionPolicies(Collections.unmodifiableMap(copy), definedUnder);
  }

  /** No policies. */
  public static ExecutionPolicies empty() {
    return EMPTY;
  }

  /**
   * The policy called {@code name}.
   *
   * @throws IllegalArgumentException naming the configured policies when there is none called {@code name}:
   *     {@code no execution policy named '<name>'; configured: <names>}, then where to define it when known
   */
  public ExecutionPolicy get(String name) {
    ExecutionPolicy policy = policies.get(name);
    if (policy == null) {
      throw new IllegalArgumentException("no execution policy named '" + name + "'; configured: "
          + (policies.isEmpty() ? "none" : String.join(", ", policies.keySet()))
          + (definedUnder != null ? " (define it under " + definedUnder + "." + name + ")" : ""));
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
