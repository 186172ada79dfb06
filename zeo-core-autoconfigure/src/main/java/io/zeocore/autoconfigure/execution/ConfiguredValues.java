package io.zeocore.autoconfigure.execution;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Finds a property's value as the user wrote it and where it was written, for error reports. A list written as YAML
 * items ({@code name[0]}, {@code name[1]}, …) is joined back into {@code [a, b]}.
 */
final class ConfiguredValues {

  /** A property as written: its text and origin (file and line), either possibly {@code null}. */
  record Written(@Nullable String value, @Nullable String origin) {}

  private static final Written NOT_FOUND = new Written(null, null);

  private final Iterable<ConfigurationPropertySource> sources;

  private ConfiguredValues(Iterable<ConfigurationPropertySource> sources) {
    this.sources = sources;
  }

  static ConfiguredValues of(@Nullable Environment environment) {
    return new ConfiguredValues(environment != null ? ConfigurationPropertySources.get(environment) : List.of());
  }

  static ConfiguredValues none() {
    return new ConfiguredValues(List.of());
  }

  Written find(String path) {
    ConfigurationProperty whole = property(path);
    if (whole != null) {
      return new Written(String.valueOf(whole.getValue()), origin(whole));
    }
    List<String> items = new ArrayList<>();
    String origin = null;
    for (int i = 0; ; i++) {
      ConfigurationProperty item = property(path + "[" + i + "]");
      if (item == null) {
        break;
      }
      if (i == 0) {
        origin = origin(item);
      }
      items.add(String.valueOf(item.getValue()));
    }
    return items.isEmpty() ? NOT_FOUND : new Written("[" + String.join(", ", items) + "]", origin);
  }

  private @Nullable ConfigurationProperty property(String path) {
    ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(path);
    if (name == null) {
      return null;
    }
    for (ConfigurationPropertySource source : sources) {
      ConfigurationProperty property = source.getConfigurationProperty(name);
      if (property != null) {
        return property;
      }
    }
    return null;
  }

  private static @Nullable String origin(ConfigurationProperty property) {
    Origin origin = property.getOrigin();
    return origin != null ? origin.toString() : null;
  }
}
