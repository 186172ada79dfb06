package io.zeocore.autoconfigure.internal;

import io.zeocore.InvalidFieldException;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Turns a core builder's {@link InvalidFieldException} into the start-up failure of the property that set the field:
 * the Java field ({@code terminationGrace}) becomes the kebab-case key ({@code termination-grace}) under the
 * settings' prefix, the rule is reported in the same words. Not API.
 */
public final class InvalidFields {

  private InvalidFields() {}

  /**
   * The failure to throw for {@code invalid}.
   *
   * @param prefix the settings' prefix, e.g. {@code zeocore.llm.openai}
   * @param renames Java fields whose property has another name ({@code maxResponseBytes → max-response-size})
   * @param value the value to report, {@code null} to report none (always for secrets)
   */
  public static InvalidConfigurationPropertyValueException toProperty(String prefix, InvalidFieldException invalid,
      Map<String, String> renames, @Nullable Object value) {
    String key = renames.getOrDefault(invalid.field(), kebab(invalid.field()));
    String shortName = key.contains("[") ? key.substring(0, key.indexOf('[')) : key;
    return new InvalidConfigurationPropertyValueException(prefix + "." + key, value,
        shortName + (key.contains("[") ? key.substring(key.indexOf('[')) : "") + " " + invalid.rule());
  }

  /** {@code terminationGrace → termination-grace}. */
  public static String kebab(String javaName) {
    return javaName.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
  }
}
