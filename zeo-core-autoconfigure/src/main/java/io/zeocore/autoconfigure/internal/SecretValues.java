package io.zeocore.autoconfigure.internal;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Checks on configuration properties that hold secrets (API keys, passwords). Not API: shared by ZeoCore's
 * auto-configurations only.
 */
public final class SecretValues {

  private SecretValues() {}

  /**
   * Refuses a secret that is still a {@code ${…}} placeholder: Spring leaves a placeholder whose variable is unset as
   * literal text, which would otherwise be sent as the credential. The failure names the property, never its value.
   *
   * @param property the property's full name, e.g. {@code zeocore.llm.openai.api-key}
   * @param value its bound value, {@code null} when unset
   * @throws InvalidConfigurationPropertyValueException when {@code value} contains an unresolved placeholder
   */
  public static void requireResolved(String property, @Nullable String value) {
    if (value == null) {
      return;
    }
    int start = value.indexOf("${");
    if (start >= 0 && value.indexOf('}', start) > start) {
      throw new InvalidConfigurationPropertyValueException(property, null,
          "the value is an unresolved ${...} placeholder: set the environment variable or property it names, "
              + "or remove the setting");
    }
  }
}
