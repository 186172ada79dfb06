package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.Policy;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.InvalidPolicyException;
import io.zeocore.execution.OperationMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns {@link ZeoCoreExecutionProperties} into validated {@link ExecutionPolicies}: follows each policy's chain of
 * configs, takes every property from the first entry of the chain that sets it, builds the policy with the library's
 * own validation and reports a broken rule as an {@link InvalidExecutionPolicyPropertyException} naming the property
 * that holds the offending value.
 */
final class ExecutionPolicyResolver {

  static final String CONFIGS = "zeocore.execution.configs.";
  static final String POLICIES = "zeocore.execution.policies.";
  static final String DEFAULT_CONFIG = "default";

  /** The reference's field names in the library's messages, and the properties that set them. */
  private static final Map<String, String> RULE_NAMES = Map.of(
      "operation_mode", "operation-mode",
      "total_timeout_seconds", "total-timeout",
      "attempt_timeout_seconds", "attempt-timeout",
      "attempt_targets", "attempt-targets",
      "backoff_seconds", "backoff",
      "jitter_fraction", "jitter-fraction",
      "retryable_failures", "retryable-failures",
      "cancellation_poll_seconds", "cancellation-poll");

  private final Map<String, Policy> configs;
  private final Map<String, Policy> policies;
  private final ConfiguredValues written;

  private ExecutionPolicyResolver(ZeoCoreExecutionProperties properties, ConfiguredValues written) {
    this.configs = properties.getConfigs();
    this.policies = properties.getPolicies();
    this.written = written;
  }

  /**
   * Resolves and validates every configured policy, and checks every config's chain even when no policy uses it.
   *
   * @throws InvalidExecutionPolicyPropertyException for the first broken rule, in configuration order
   */
  static ExecutionPolicies resolve(ZeoCoreExecutionProperties properties, ConfiguredValues written) {
    return new ExecutionPolicyResolver(properties, written).resolveAll();
  }

  private ExecutionPolicies resolveAll() {
    configs.forEach((name, config) -> chain(null, CONFIGS + name, config));
    Map<String, ExecutionPolicy> resolved = new LinkedHashMap<>();
    policies.forEach((name, policy) -> resolved.put(name, resolve(name, chain(name, POLICIES + name, policy))));
    return ExecutionPolicies.of(resolved);
  }

  /** One entry of a chain: the settings and the property prefix they are bound from. */
  private record Layer(String path, Policy settings) {}

  /**
   * The entry followed by the configs it inherits from, nearest first. An entry without {@code base-config} inherits
   * from {@code default} unless {@code default} is already in the chain.
   *
   * @param policyName the policy whose chain this is, {@code null} for a config's own chain
   */
  private List<Layer> chain(String policyName, String path, Policy entry) {
    List<Layer> chain = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    if (path.startsWith(CONFIGS)) {
      seen.add(path.substring(CONFIGS.length()));
    }
    Layer layer = new Layer(path, entry);
    while (true) {
      chain.add(layer);
      String base = layer.settings().getBaseConfig();
      String property = layer.path() + ".base-config";
      if (base == null) {
        if (!configs.containsKey(DEFAULT_CONFIG) || seen.contains(DEFAULT_CONFIG)) {
          return chain;
        }
        base = DEFAULT_CONFIG;
      } else if (!configs.containsKey(base)) {
        throw invalid(policyName, property, "no config named '" + base + "' under zeocore.execution.configs "
            + "(configured: " + (configs.isEmpty() ? "none" : String.join(", ", configs.keySet())) + ")");
      } else if (seen.contains(base)) {
        throw invalid(policyName, property, "base-config forms a cycle: " + String.join(" -> ", seen) + " -> " + base);
      }
      seen.add(base);
      layer = new Layer(CONFIGS + base, configs.get(base));
    }
  }

  private ExecutionPolicy resolve(String name, List<Layer> chain) {
    Inherited inherited = new Inherited(chain);
    ExecutionPolicy.Builder builder = ExecutionPolicy.builder();
    OperationMode operationMode = inherited.take("operation-mode", Policy::getOperationMode);
    if (operationMode != null) {
      builder.operationMode(operationMode);
    }
    builder.totalTimeout(inherited.take("total-timeout", Policy::getTotalTimeout));
    builder.attemptTimeout(inherited.take("attempt-timeout", Policy::getAttemptTimeout));
    List<String> targets = inherited.take("attempt-targets", Policy::getAttemptTargets);
    builder.attemptTargets(targets);
    List<Duration> backoff = inherited.take("backoff", Policy::getBackoff);
    if (backoff != null) {
      builder.backoff(backoff);
    }
    Double jitter = inherited.take("jitter-fraction", Policy::getJitterFraction);
    if (jitter != null) {
      builder.jitterFraction(jitter);
    }
    Set<FailureKind> retryable = inherited.take("retryable-failures", Policy::getRetryableFailures);
    if (retryable != null) {
      builder.retryableFailures(retryable);
    }
    Boolean allowSimulated = inherited.take("allow-simulated", Policy::getAllowSimulated);
    if (allowSimulated != null) {
      builder.allowSimulated(allowSimulated);
    }
    Duration poll = inherited.take("cancellation-poll", Policy::getCancellationPoll);
    if (poll != null) {
      builder.cancellationPoll(poll);
    }
    try {
      return builder.build();
    } catch (InvalidPolicyException broken) {
      String property = kebabCase(broken.field());
      String rule = inherited.isSet(property)
          ? ruleText(broken.getMessage())
          : property + " is required: set it on the policy or on a config it inherits from";
      if (property.equals("backoff") && targets != null && backoff != null && backoff.size() > targets.size() - 1) {
        rule += " (attempt-targets has " + targets.size() + (targets.size() == 1 ? " entry" : " entries")
            + ", so backoff may have at most " + (targets.size() - 1) + ")";
      }
      if (property.equals("attempt-targets") && targets != null && !targets.isEmpty()) {
        rule += " (1-128 characters: a letter or digit, then letters, digits, '_', '.', ':', '/' or '-')";
      }
      throw invalid(name, inherited.path(property), rule);
    }
  }

  /** Takes each property from the nearest entry of a chain that sets it, remembering where it came from. */
  private static final class Inherited {

    private final List<Layer> chain;
    private final Map<String, String> setAt = new HashMap<>();

    Inherited(List<Layer> chain) {
      this.chain = chain;
    }

    <V> V take(String property, Function<Policy, V> getter) {
      for (Layer layer : chain) {
        V value = getter.apply(layer.settings());
        if (value != null) {
          setAt.put(property, layer.path() + "." + property);
          return value;
        }
      }
      return null;
    }

    boolean isSet(String property) {
      return setAt.containsKey(property);
    }

    /** Where the property's value was set, or the policy's own path when it is not set anywhere. */
    String path(String property) {
      return setAt.getOrDefault(property, chain.get(0).path() + "." + property);
    }
  }

  private InvalidExecutionPolicyPropertyException invalid(String policyName, String property, String rule) {
    ConfiguredValues.Written value = written.find(property);
    return new InvalidExecutionPolicyPropertyException(policyName, property, value.value(), value.origin(), rule);
  }

  /** {@code retryableFailures} → {@code retryable-failures}. */
  static String kebabCase(String javaName) {
    StringBuilder kebab = new StringBuilder(javaName.length() + 4);
    for (char c : javaName.toCharArray()) {
      if (Character.isUpperCase(c)) {
        kebab.append('-').append(Character.toLowerCase(c));
      } else {
        kebab.append(c);
      }
    }
    return kebab.toString().toLowerCase(Locale.ROOT);
  }

  /** The library's rule text with the reference's field names replaced by the property names. */
  static String ruleText(String message) {
    String text = message;
    for (Map.Entry<String, String> name : RULE_NAMES.entrySet()) {
      text = text.replace(name.getKey(), name.getValue());
    }
    return text;
  }

}
