package io.zeocore.autoconfigure.validation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails start-up when a {@code zeocore.*} key is set that ZeoCore does not have, before any bean is created (so a
 * misspelled setting creates no store file and opens no connection). It runs as a {@link BeanFactoryPostProcessor}.
 *
 * <p>The rule: only the application's own configuration is checked, that is every iterable property source of the
 * environment except the JVM's system properties and the operating system's environment variables. So are checked:
 * the application's files and their profiles ({@code application.yml}, {@code spring.config.import}, …), command-line
 * arguments, default properties, {@code SPRING_APPLICATION_JSON}, and test properties ({@code @SpringBootTest}
 * properties, {@code @TestPropertySource}, {@code @DynamicPropertySource}, {@code ApplicationContextRunner}'s
 * {@code withPropertyValues}). A system property that merely starts with {@code zeocore.} is not a typo in the
 * application's configuration: a build that overrides its own {@code zeocore.version} property on the command line
 * ({@code mvn test -Dzeocore.version=…}) hands it to the tests as one. Such keys are only named in one INFO line (they
 * stay ignored, as any key ZeoCore does not have; the known ones still apply). {@code ZEOCORE_...} environment
 * variables are not read at all: their names cannot be mapped back to one key without ambiguity.
 *
 * <p>{@code zeocore.*} is ZeoCore's namespace: an unknown section ({@code zeocore.executon}) fails as well as an
 * unknown key inside a known one ({@code zeocore.execution.policies.summarize.atempt-timeout}). Keys inside maps
 * whose values are plain values (exit codes, failure-kind mappings by class name) are not checked here; their values
 * are checked where they are used.
 */
class ConfigurationKeysCheck implements BeanFactoryPostProcessor, EnvironmentAware, Ordered {

  private static final Log LOGGER = LogFactory.getLog(ConfigurationKeysCheck.class);

  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(ConfigurationKeyModel.ROOT);

  private @Nullable Environment environment;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    ClassLoader classLoader = beanFactory.getBeanClassLoader() != null ? beanFactory.getBeanClassLoader()
        : ConfigurationKeysCheck.class.getClassLoader();
    // set before any post-processing: Spring calls EnvironmentAware first
    check(Objects.requireNonNull(environment, "environment"), ConfigurationKeyModel.forClassLoader(classLoader));
  }

  static void check(Environment environment, ConfigurationKeyModel model) {
    Map<String, UnknownConfigurationKeysException.UnknownKey> unknown = new LinkedHashMap<>();
    Set<String> ignoredSystemProperties = new TreeSet<>(); // system properties have no order of their own
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable)
          || source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
        continue; // environment variable names cannot be mapped back to one key unambiguously
      }
      if (isSystemProperties(source)) {
        iterable.filter(ROOT::isAncestorOf).forEach(name -> {
          ConfigurationKeyModel.Unknown problem = model.check(name);
          if (problem != null) {
            ignoredSystemProperties.add(problem.key());
          }
        });
        continue;
      }
      iterable.filter(ROOT::isAncestorOf).forEach(name -> {
        ConfigurationKeyModel.Unknown problem = model.check(name);
        if (problem != null && !unknown.containsKey(problem.key())) {
          ConfigurationProperty property = source.getConfigurationProperty(name);
          String origin = property != null && property.getOrigin() != null ? property.getOrigin().toString() : null;
          unknown.put(problem.key(),
              new UnknownConfigurationKeysException.UnknownKey(problem.key(), origin, problem.suggestion()));
        }
      });
    }
    if (!unknown.isEmpty()) {
      throw new UnknownConfigurationKeysException(new ArrayList<>(unknown.values()));
    }
    if (!ignoredSystemProperties.isEmpty() && LOGGER.isInfoEnabled()) {
      LOGGER.info("Ignoring JVM system properties that are not ZeoCore configuration keys: "
          + String.join(", ", ignoredSystemProperties) + " (only the application's own configuration is checked "
          + "for unknown zeocore.* keys)");
    }
  }

  /** Whether {@code source} is the JVM's system properties, which the application does not own. */
  private static boolean isSystemProperties(ConfigurationPropertySource source) {
    return source.getUnderlyingSource() instanceof PropertySource<?> underlying
        && (StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(underlying.getName())
            || underlying.getSource() == System.getProperties());
  }
}
