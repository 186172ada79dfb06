package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.ExponentialBackoff;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.Policy;
import io.zeocore.autoconfigure.internal.ConfiguredNames;
import io.zeocore.autoconfigure.internal.InvalidFields;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.InvalidPolicyException;
import io.zeocore.execution.OperationMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

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

  /** The multiplier of exponential-backoff when it sets none. */
  static final double DEFAULT_MULTIPLIER = 2.0;

  /** The reference's field names in the library's messages, and the properties that set them. */
  private static final Map<String, String> RULE_NAMES = Map.of(
      "operation_mode", "operation-mode",
      "total_timeout_seconds", "total-timeout",
      "attempt_timeout_seconds", "attempt-timeout",
      "attempt_targets", "attempt-targets",
      "backoff_seconds", "backoff",
      "jitter_fraction", "jitter-fraction",
      "retryable_failures", "retryable-failures",
      "cancellation_poll_seconds", "cancellation-poll",
      "failure_kinds", "failure-kinds");

  private final Map<String, Policy> configs;
  private final Map<String, Policy> policies;
  private final ConfiguredValues written;
  private final ClassLoader classLoader;

  private ExecutionPolicyResolver(ZeoCoreExecutionProperties properties, ConfiguredValues written,
      ClassLoader classLoader) {
    this.configs = properties.getConfigs();
    this.policies = properties.getPolicies();
    this.written = written;
    this.classLoader = classLoader;
  }

  /**
   * Resolves and validates every configured policy, and checks every config's chain even when no policy uses it.
   *
   * @throws InvalidExecutionPolicyPropertyException for the first broken rule, in configuration order
   */
  static ExecutionPolicies resolve(ZeoCoreExecutionProperties properties, ConfiguredValues written) {
    return resolve(properties, written, ExecutionPolicyResolver.class.getClassLoader());
  }

  /**
   * Resolves and validates every configured policy, loading the exception classes of {@code failure-kinds} from
   * {@code classLoader}.
   *
   * @throws InvalidExecutionPolicyPropertyException for the first broken rule, in configuration order
   */
  static ExecutionPolicies resolve(ZeoCoreExecutionProperties properties, ConfiguredValues written,
      ClassLoader classLoader) {
    return new ExecutionPolicyResolver(properties, written, classLoader).resolveAll();
  }

  /**
   * Where each configured policy's targets come from, after inheritance, and the property its {@code attempt-targets}
   * was taken from (the policy's own, or a config's it inherits). Call after {@link #resolve} succeeded.
   */
  static Map<String, PlannedTargets> plannedTargets(ZeoCoreExecutionProperties properties) {
    ExecutionPolicyResolver resolver = new ExecutionPolicyResolver(properties, ConfiguredValues.none(),
        ExecutionPolicyResolver.class.getClassLoader());
    Map<String, PlannedTargets> planned = new LinkedHashMap<>();
    resolver.policies.forEach((name, policy) -> {
      Inherited inherited = new Inherited(resolver.chain(name, POLICIES + name, policy));
      TargetSource source = inherited.take("targets", Policy::getTargets);
      inherited.take("attempt-targets", Policy::getAttemptTargets);
      planned.put(name, new PlannedTargets(inherited.path("attempt-targets"),
          source != null ? source : TargetSource.REGISTERED));
    });
    return planned;
  }

  /**
   * A policy's planned targets as configured.
   *
   * @param property the property its attempt-targets were set by
   * @param source where its targets come from
   */
  record PlannedTargets(String property, TargetSource source) {}

  private ExecutionPolicies resolveAll() {
    configs.forEach((name, config) -> {
      chain(null, CONFIGS + name, config);
      checkBackoffForms(null, new Layer(CONFIGS + name, config));
    });
    Map<String, ExecutionPolicy> resolved = new LinkedHashMap<>();
    policies.forEach((name, policy) -> resolved.put(name, resolve(name, chain(name, POLICIES + name, policy))));
    return ExecutionPolicies.of(resolved, "zeocore.execution.policies");
  }

  /** One entry of a chain: the settings and the property prefix they are bound from. */
  private record Layer(String path, Policy settings) {}

  /**
   * The entry followed by the configs it inherits from, nearest first. An entry without {@code base-config} inherits
   * from {@code default} unless {@code default} is already in the chain.
   *
   * @param policyName the policy whose chain this is, {@code null} for a config's own chain
   */
  private List<Layer> chain(@Nullable String policyName, String path, Policy entry) {
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
            + "(configured: " + ConfiguredNames.list(configs.keySet()) + ")");
      } else if (seen.contains(base)) {
        throw invalid(policyName, property, "base-config forms a cycle: " + String.join(" -> ", seen) + " -> " + base);
      }
      seen.add(base);
      layer = new Layer(CONFIGS + base, Objects.requireNonNull(configs.get(base), base)); // present: checked above
    }
  }

  /** A stream timeout of the chain, refused naming its property when it is zero or negative; {@code null} when unset. */
  private @Nullable Duration positiveStreamTimeout(String name, Inherited inherited, String property,
      Function<Policy, @Nullable Duration> getter) {
    Duration value = inherited.take(property, getter);
    if (value != null && (value.isZero() || value.isNegative())) {
      throw invalid(name, inherited.path(property), property + " must be greater than 0");
    }
    return value;
  }

  private ExecutionPolicy resolve(String name, List<Layer> chain) {
    Inherited inherited = new Inherited(chain);
    ExecutionPolicy.Builder builder = ExecutionPolicy.builder().name(name);
    inherited.applyIfSet("deadline", Policy::getDeadline, builder::deadline);
    inherited.applyIfSet("ignore-cooldowns", Policy::getIgnoreCooldowns, builder::ignoreCooldowns);
    Long maxTokens = inherited.take("budget.max-tokens", policy -> policy.getBudget().getMaxTokens());
    if (maxTokens != null && maxTokens < 1) {
      throw invalid(name, inherited.path("budget.max-tokens"), "budget.max-tokens must be greater than 0");
    }
    builder.maxTokens(maxTokens);
    builder.firstChunkTimeout(positiveStreamTimeout(name, inherited, "stream.first-chunk-timeout",
        policy -> policy.getStream().getFirstChunkTimeout()));
    builder.chunkIdleTimeout(positiveStreamTimeout(name, inherited, "stream.chunk-idle-timeout",
        policy -> policy.getStream().getChunkIdleTimeout()));
    builder.failureKinds(failureKinds(name, chain));
    OperationMode operationMode = inherited.take("operation-mode", Policy::getOperationMode);
    if (operationMode == OperationMode.EFFECTFUL) {
      throw invalid(name, inherited.path("operation-mode"), "the runner runs read-only and advisory work only: an "
          + "effectful policy would refuse every run (ZEO_EXEC_EFFECTFUL_REQUIRES_PERSISTENCE). Write effects "
          + "through the durable EffectOrchestrator (zeocore.connections.*), which dispatches once and reconciles; "
          + "use read-only or advisory here");
    }
    if (operationMode != null) {
      builder.operationMode(operationMode);
    }
    builder.totalTimeout(inherited.take("total-timeout", Policy::getTotalTimeout));
    builder.attemptTimeout(inherited.take("attempt-timeout", Policy::getAttemptTimeout));
    List<String> targets = inherited.take("attempt-targets", Policy::getAttemptTargets);
    builder.attemptTargets(targets);
    List<Duration> backoff = backoff(name, chain, inherited, targets);
    if (backoff != null) {
      builder.backoff(backoff);
    }
    inherited.applyIfSet("jitter-fraction", Policy::getJitterFraction, builder::jitterFraction);
    inherited.applyIfSet("retryable-failures", Policy::getRetryableFailures, builder::retryableFailures);
    inherited.applyIfSet("allow-simulated", Policy::getAllowSimulated, builder::allowSimulated);
    inherited.applyIfSet("cancellation-poll", Policy::getCancellationPoll, builder::cancellationPoll);
    try {
      return builder.build();
    } catch (InvalidPolicyException broken) {
      String property = InvalidFields.kebab(broken.field());
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

  /**
   * The policy's backoff: from the nearest entry of the chain that sets {@code backoff} or
   * {@code exponential-backoff} (an entry setting both is refused), the rule expanded into one delay per attempt
   * transition of {@code targets}. {@code null} when no entry sets either.
   */
  private @Nullable List<Duration> backoff(String policyName, List<Layer> chain, Inherited inherited,
      @Nullable List<String> targets) {
    for (Layer layer : chain) {
      checkBackoffForms(policyName, layer);
      if (layer.settings().getBackoff() != null) {
        inherited.setAt("backoff", layer.path() + ".backoff");
        return layer.settings().getBackoff();
      }
      ExponentialBackoff rule = layer.settings().getExponentialBackoff();
      if (rule != null) {
        inherited.setAt("backoff", layer.path() + ".exponential-backoff");
        return targets == null ? null : expand(rule, Math.max(0, targets.size() - 1));
      }
    }
    return null;
  }

  /** An entry sets at most one of backoff and exponential-backoff, and the rule's own values are valid. */
  private void checkBackoffForms(@Nullable String policyName, Layer layer) {
    ExponentialBackoff rule = layer.settings().getExponentialBackoff();
    if (rule == null) {
      return;
    }
    String path = layer.path() + ".exponential-backoff";
    if (layer.settings().getBackoff() != null) {
      ConfiguredValues.Written both = writtenRule(path);
      throw new InvalidExecutionPolicyPropertyException(policyName, path, both.value(), both.origin(),
          "backoff and exponential-backoff are both set on " + layer.path() + "; set one of them: backoff lists the "
              + "delays, exponential-backoff computes them");
    }
    if (rule.getInitial() == null) {
      throw invalid(policyName, path + ".initial", "exponential-backoff needs initial, the delay after the first "
          + "attempt (greater than zero)");
    }
    if (rule.getInitial().isNegative() || rule.getInitial().isZero()) {
      throw invalid(policyName, path + ".initial", "initial must be greater than zero");
    }
    Double multiplier = rule.getMultiplier();
    if (multiplier != null && (multiplier.isNaN() || multiplier.isInfinite() || multiplier < 1)) {
      throw invalid(policyName, path + ".multiplier", "multiplier must be a number of at least 1 (1 repeats "
          + "initial; 2 doubles each delay)");
    }
    if (rule.getMax() != null && rule.getMax().compareTo(rule.getInitial()) < 0) {
      String initial = written.find(path + ".initial").value();
      throw invalid(policyName, path + ".max", "max must be at least initial ("
          + (initial != null ? initial : rule.getInitial().toMillis() + "ms") + ")");
    }
  }

  /**
   * {@code count} delays: initial × multiplier^i, capped at max (or, without max, at the longest {@link Duration}
   * in nanoseconds), each rounded to the nearest nanosecond.
   */
  static List<Duration> expand(ExponentialBackoff rule, int count) {
    double multiplier = rule.getMultiplier() != null ? rule.getMultiplier() : DEFAULT_MULTIPLIER;
    double cap = rule.getMax() != null ? nanos(rule.getMax()) : Long.MAX_VALUE;
    Duration initial = Objects.requireNonNull(rule.getInitial(), "initial"); // required: checked before expanding
    double delay = nanos(initial);
    List<Duration> delays = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      double capped = Math.min(delay, cap);
      delays.add(capped >= Long.MAX_VALUE ? Duration.ofNanos(Long.MAX_VALUE) : Duration.ofNanos(Math.round(capped)));
      delay *= multiplier;
    }
    return delays;
  }

  private static double nanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException beyondLong) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * The rule as written, for reports: {@code {initial=200ms, multiplier=2, max=2s}} and where its first key was set
   * (either may be {@code null}).
   */
  private ConfiguredValues.Written writtenRule(String path) {
    List<String> parts = new ArrayList<>();
    String origin = null;
    for (String key : List.of("initial", "multiplier", "max")) {
      ConfiguredValues.Written value = written.find(path + "." + key);
      if (value.value() != null) {
        parts.add(key + "=" + value.value());
        origin = origin != null ? origin : value.origin();
      }
    }
    return new ConfiguredValues.Written(parts.isEmpty() ? null : "{" + String.join(", ", parts) + "}", origin);
  }

  /**
   * The chain's {@code failure-kinds}, merged (the nearer entry wins per class), each class loaded and each kind
   * parsed. Exception text is never involved: only class names and kinds.
   */
  private Map<Class<? extends Throwable>, FailureKind> failureKinds(String policyName, List<Layer> chain) {
    Map<String, Map.Entry<String, String>> merged = new LinkedHashMap<>(); // class name -> (property, kind)
    for (int i = chain.size() - 1; i >= 0; i--) {
      Layer layer = chain.get(i);
      layer.settings().getFailureKinds().forEach((className, kind) -> merged.put(className,
          Map.entry(layer.path() + ".failure-kinds." + className, kind == null ? "" : kind)));
    }
    Map<Class<? extends Throwable>, FailureKind> kinds = new LinkedHashMap<>();
    merged.forEach((className, setting) -> {
      String property = setting.getKey();
      String value = setting.getValue();
      Class<?> type;
      try {
        type = ClassUtils.forName(className, classLoader);
      } catch (ClassNotFoundException | LinkageError | IllegalArgumentException absent) {
        throw invalid(policyName, property, value, "no class named '" + className + "' is on the class path "
            + "(write the fully qualified name of an exception class, nested classes with '$')");
      }
      if (!Throwable.class.isAssignableFrom(type)) {
        throw invalid(policyName, property, value, "'" + className + "' is not an exception class");
      }
      FailureKind kind;
      try {
        kind = FailureKind.fromWireValue(value);
      } catch (IllegalArgumentException unknown) {
        throw invalid(policyName, property, value, "'" + value + "' is not a failure kind; expected one of "
            + mappableKinds());
      }
      if (kind == FailureKind.CANCELLED) {
        throw invalid(policyName, property, value, "cancelled is reserved for the host's cancellation; expected one "
            + "of " + mappableKinds());
      }
      kinds.put(type.asSubclass(Throwable.class), kind);
    });
    return kinds;
  }

  private static String mappableKinds() {
    return Arrays.stream(FailureKind.values()).filter(kind -> kind != FailureKind.CANCELLED)
        .map(kind -> kind.wireValue().replace('_', '-')).collect(Collectors.joining(", "));
  }

  /** Takes each property from the nearest entry of a chain that sets it, remembering where it came from. */
  private static final class Inherited {

    private final List<Layer> chain;
    private final Map<String, String> setAt = new HashMap<>();

    Inherited(List<Layer> chain) {
      this.chain = chain;
    }

    <V> @Nullable V take(String property, Function<Policy, @Nullable V> getter) {
      for (Layer layer : chain) {
        V value = getter.apply(layer.settings());
        if (value != null) {
          setAt.put(property, layer.path() + "." + property);
          return value;
        }
      }
      return null;
    }

    /**
     * Passes the property's value, taken as by {@link #take}, to {@code setter} when some entry of the chain sets it;
     * when none does, the setter is not called and the builder keeps the library's default.
     */
    <V> void applyIfSet(String property, Function<Policy, V> getter, Consumer<? super V> setter) {
      V value = take(property, getter);
      if (value != null) {
        setter.accept(value);
      }
    }

    /** Records that {@code property} was taken from {@code path}. */
    void setAt(String property, String path) {
      setAt.put(property, path);
    }

    boolean isSet(String property) {
      return setAt.containsKey(property);
    }

    /** Where the property's value was set, or the policy's own path when it is not set anywhere. */
    String path(String property) {
      return setAt.getOrDefault(property, chain.get(0).path() + "." + property);
    }
  }

  /** A broken rule of a property whose written value is known ({@code failure-kinds} keys are not canonical names). */
  private InvalidExecutionPolicyPropertyException invalid(@Nullable String policyName, String property,
      @Nullable String value, String rule) {
    ConfiguredValues.Written found = written.find(property);
    return new InvalidExecutionPolicyPropertyException(policyName, property, value, found.origin(), rule);
  }

  private InvalidExecutionPolicyPropertyException invalid(@Nullable String policyName, String property,
      String rule) {
    ConfiguredValues.Written value = written.find(property);
    return new InvalidExecutionPolicyPropertyException(policyName, property, value.value(), value.origin(), rule);
  }

  /** The library's rule text with the reference's field names replaced by the property names. */
  static String ruleText(@Nullable String message) {
    String text = message != null ? message : "";
    for (Map.Entry<String, String> name : RULE_NAMES.entrySet()) {
      text = text.replace(name.getKey(), name.getValue());
    }
    return text;
  }

}
