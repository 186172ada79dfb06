package io.zeocore.autoconfigure.connections;

import io.zeocore.autoconfigure.internal.ConfiguredProperties;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a property other than an off-switch is set under a prefix: that part is "configured". Off-switches are
 * the {@code enabled} properties at any depth ({@code zeocore.connections.recovery.enabled=false} alone configures
 * nothing, so it creates no store).
 */
abstract class ConfiguredCondition extends SpringBootCondition {

  private final String prefix;

  ConfiguredCondition(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return isConfigured(context.getEnvironment(), prefix)
        ? ConditionOutcome.match("properties are set under " + prefix)
        : ConditionOutcome.noMatch("no property is set under " + prefix);
  }

  /** Whether a property other than an {@code enabled} off-switch is set under {@code prefix}. */
  static boolean isConfigured(Environment environment, String prefix) {
    return ConfiguredProperties.anySetUnder(environment, prefix,
        name -> !name.getLastElement(ConfigurationPropertyName.Form.UNIFORM).equals("enabled"));
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
