package io.zeocore.autoconfigure.internal;

import java.util.function.Predicate;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Whether properties are set under a prefix, answered from the names the environment's property sources list, as
 * Spring Boot's binder sees them (relaxed names, environment variables included), without binding anything: binding
 * a prefix as a map costs tens of milliseconds the first time in an application, and conditions and start-up hooks ask
 * this before any binding is needed. Like binding a map, it sees only the sources that can list their names. Not API:
 * shared by ZeoCore's auto-configurations only.
 */
public final class ConfiguredProperties {

  private ConfiguredProperties() {}

  /**
   * Whether some property under {@code prefix} (not {@code prefix} itself) is set whose name {@code counts} accepts.
   *
   * @param prefix a canonical property name, e.g. {@code zeocore.connections}
   */
  public static boolean anySetUnder(Environment environment, String prefix,
      Predicate<ConfigurationPropertyName> counts) {
    ConfigurationPropertyName root = ConfigurationPropertyName.of(prefix);
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (source instanceof IterableConfigurationPropertySource iterable
          && iterable.filter(root::isAncestorOf).stream().anyMatch(counts)) {
        return true;
      }
    }
    return false;
  }
}
