package io.zeocore.autoconfigure.connections;

import io.zeocore.autoconfigure.internal.ConfiguredProperties;
import io.zeocore.autoconfigure.internal.PropertiesSetUnderCondition;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * Matches when a property other than an off-switch is set under a prefix: that part is "configured". Off-switches are
 * the {@code enabled} properties at any depth ({@code zeocore.connections.recovery.enabled=false} alone configures
 * nothing, so it creates no store).
 */
abstract class ConfiguredCondition extends PropertiesSetUnderCondition {

  ConfiguredCondition(String prefix) {
    super(prefix, ConfiguredCondition::isNotOffSwitch);
  }

  /** Whether a property other than an {@code enabled} off-switch is set under {@code prefix}. */
  static boolean isConfigured(Environment environment, String prefix) {
    return ConfiguredProperties.anySetUnder(environment, prefix, ConfiguredCondition::isNotOffSwitch);
  }

  private static boolean isNotOffSwitch(ConfigurationPropertyName name) {
    return !name.getLastElement(ConfigurationPropertyName.Form.UNIFORM).equals("enabled");
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
