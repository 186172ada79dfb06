package io.zeocore.autoconfigure.connections;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when a property other than {@code enabled} is set under a prefix: that part is "configured". */
abstract class ConfiguredCondition extends SpringBootCondition {

  private final String prefix;

  ConfiguredCondition(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    boolean configured = Binder.get(context.getEnvironment())
        .bind(prefix, Bindable.mapOf(String.class, Object.class))
        .map(properties -> properties.keySet().stream().anyMatch(key -> !key.equals("enabled")))
        .orElse(false);
    return configured
        ? ConditionOutcome.match("properties are set under " + prefix)
        : ConditionOutcome.noMatch("no property is set under " + prefix);
  }

  static final class Connections extends ConfiguredCondition {
    Connections() {
      super("zeocore.connections");
    }
  }

  static final class Authorization extends ConfiguredCondition {
    Authorization() {
      super("zeocore.connections.authorization");
    }
  }
}
