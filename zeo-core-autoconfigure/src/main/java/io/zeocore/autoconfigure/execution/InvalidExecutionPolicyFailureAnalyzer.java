package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.DeadlineMode;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.OperationMode;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

/**
 * Reports an invalid execution policy: an {@link InvalidExecutionPolicyPropertyException}, or a
 * {@code zeocore.execution.*} value that is not a failure kind or operation mode (which Spring's binder rejects before
 * the policy is built). The report names the property, its value, where it was set and the rule. Ordered before
 * Spring Boot's generic bind-failure analyzer so that the second case reads like the first.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
class InvalidExecutionPolicyFailureAnalyzer implements FailureAnalyzer {

  private static final String PREFIX = "zeocore.execution.";

  @Override
  public @Nullable FailureAnalysis analyze(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidExecutionPolicyPropertyException invalid) {
        return analysis(invalid.policyName(), invalid.property(), invalid.value(), invalid.origin(), invalid.rule(),
            invalid);
      }
      if (cause instanceof BindException bind) {
        FailureAnalysis analysis = analyzeBind(bind);
        if (analysis != null) {
          return analysis;
        }
      }
    }
    return null;
  }

  private static @Nullable FailureAnalysis analyzeBind(BindException bind) {
    String property = bind.getName().toString();
    if (!property.startsWith(PREFIX)) {
      return null;
    }
    Class<?> type = elementType(bind.getTarget().getType());
    ConfigurationProperty bound = bind.getProperty();
    String value = bound != null && bound.getValue() != null ? String.valueOf(bound.getValue()) : null;
    String origin = bound != null && bound.getOrigin() != null ? bound.getOrigin().toString() : null;
    String rule;
    if (type == FailureKind.class) {
      rule = unknown(value, FailureKind.class, "a failure kind") + "; retryable-failures accepts "
          + Arrays.stream(FailureKind.values()).filter(kind -> !kind.isNeverRetryable())
              .map(InvalidExecutionPolicyFailureAnalyzer::kebab).collect(Collectors.joining(", "))
          + " (" + FailureKind.NEVER_RETRYABLE.stream().map(InvalidExecutionPolicyFailureAnalyzer::kebab).sorted()
              .collect(Collectors.joining(", ")) + " can never be retryable)";
    } else if (type == OperationMode.class) {
      rule = unknown(value, OperationMode.class, "an operation mode") + "; expected one of "
          + Arrays.stream(OperationMode.values()).filter(mode -> mode != OperationMode.EFFECTFUL)
              .map(InvalidExecutionPolicyFailureAnalyzer::kebab).collect(Collectors.joining(", "))
          + " (effects go through the EffectOrchestrator, not the runner)";
    } else if (type == DeadlineMode.class) {
      rule = unknown(value, DeadlineMode.class, "a deadline mode") + "; expected one of "
          + Arrays.stream(DeadlineMode.values()).map(InvalidExecutionPolicyFailureAnalyzer::kebab)
              .collect(Collectors.joining(", "));
    } else {
      return null;
    }
    String[] parts = property.split("\\.");
    String policyName = parts.length > 3 && parts[2].equals("policies") ? parts[3] : null;
    return analysis(policyName, property, value, origin, rule, bind);
  }

  /** The element type of a collection, or the type itself. */
  private static @Nullable Class<?> elementType(ResolvableType type) {
    Class<?> resolved = type.resolve();
    if (resolved != null && Collection.class.isAssignableFrom(resolved)) {
      return type.asCollection().resolveGeneric(0);
    }
    return resolved;
  }

  /** Which of the comma-separated entries of {@code value} is not a constant of {@code type}. */
  private static <E extends Enum<E>> String unknown(@Nullable String value, Class<E> type, String what) {
    if (value == null) {
      return "not " + what;
    }
    for (String entry : value.split(",")) {
      String candidate = canonical(entry);
      boolean known = Arrays.stream(type.getEnumConstants()).anyMatch(c -> canonical(c.name()).equals(candidate));
      if (!known) {
        return "'" + entry.trim() + "' is not " + what;
      }
    }
    return "'" + value + "' is not " + what;
  }

  private static String canonical(String name) {
    return name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
  }

  private static String kebab(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static FailureAnalysis analysis(@Nullable String policyName, String property, @Nullable String value,
      @Nullable String origin, String rule, Throwable cause) {
    StringBuilder description = new StringBuilder();
    description.append(policyName != null
        ? "ZeoCore execution policy '" + policyName + "' is invalid:"
        : "A ZeoCore execution config is invalid:").append(System.lineSeparator()).append(System.lineSeparator());
    description.append("    Property: ").append(property).append(System.lineSeparator());
    description.append("    Value: ").append(value != null ? "\"" + value + "\"" : "(not set)")
        .append(System.lineSeparator());
    if (origin != null) {
      description.append("    Origin: ").append(origin).append(System.lineSeparator());
    }
    description.append("    Rule: ").append(rule);
    String action = "Update " + property + " in your application's configuration. A policy takes every property it "
        + "does not set from the config named by its base-config, or else from zeocore.execution.configs.default.";
    return new FailureAnalysis(description.toString(), action, cause);
  }
}
