package io.zeocore.autoconfigure.validation;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
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
 * Reports a {@code zeocore.*} value that is not one of its enum's values (a failure kind under a provider's
 * {@code exit-codes}, a store's {@code datasource}, ...) in the words of the YAML: the property, the value as written,
 * where it was set and the accepted values in kebab-case ({@code transient, rate-limit, ...}), instead of Spring's
 * generic message listing Java constant names. Execution policies have their own, more specific report.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 200)
class InvalidZeoCoreValueFailureAnalyzer implements FailureAnalyzer {

  @Override
  public @Nullable FailureAnalysis analyze(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException bind) {
        return analyze(bind);
      }
    }
    return null;
  }

  private static @Nullable FailureAnalysis analyze(BindException bind) {
    String property = bind.getName().toString();
    if (!property.startsWith("zeocore.") || property.startsWith("zeocore.execution.")) {
      return null;
    }
    Class<?> type = valueType(bind.getTarget().getType());
    if (type == null || !type.isEnum()) {
      return null;
    }
    ConfigurationProperty bound = bind.getProperty();
    String value = bound != null && bound.getValue() != null ? String.valueOf(bound.getValue()) : null;
    String origin = bound != null && bound.getOrigin() != null ? bound.getOrigin().toString() : null;
    String accepted = Arrays.stream(type.getEnumConstants()).map(c -> kebab((Enum<?>) c))
        .collect(Collectors.joining(", "));
    StringBuilder description = new StringBuilder("A ZeoCore setting has a value it does not accept:\n\n");
    description.append("    Property: ").append(property).append('\n');
    description.append("    Value: ").append(value != null ? "\"" + value + "\"" : "(not set)").append('\n');
    if (origin != null) {
      description.append("    Origin: ").append(origin).append('\n');
    }
    description.append("    Rule: expected one of ").append(accepted);
    return new FailureAnalysis(description.toString(),
        "Update " + property + " in your application's configuration to one of: " + accepted + ".", bind);
  }

  /** The enum a bind target holds: itself, a collection's element or a map's value. */
  private static @Nullable Class<?> valueType(ResolvableType type) {
    Class<?> resolved = type.resolve();
    if (resolved == null) {
      return null;
    }
    if (Collection.class.isAssignableFrom(resolved)) {
      return type.asCollection().resolveGeneric(0);
    }
    if (Map.class.isAssignableFrom(resolved)) {
      return type.asMap().resolveGeneric(1);
    }
    return resolved;
  }

  private static String kebab(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
