package io.zeocore.autoconfigure.validation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
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
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails start-up when a {@code zeocore.*} key is set that ZeoCore does not have, before any bean is created (so a
 * misspelled setting creates no store file and opens no connection). It runs as a {@link BeanFactoryPostProcessor}
 * and reads every iterable property source of the environment but environment variables: application files, profiles,
 * system properties and command-line arguments. ({@code ZEOCORE_...} environment variables are left out: their names
 * cannot be mapped back to one key without ambiguity.)
 *
 * <p>{@code zeocore.*} is ZeoCore's namespace: an unknown section ({@code zeocore.executon}) fails as well as an
 * unknown key inside a known one ({@code zeocore.execution.policies.summarize.atempt-timeout}). Keys inside maps
 * whose values are plain values (exit codes, failure-kind mappings by class name) are not checked here; their values
 * are checked where they are used.
 */
class ConfigurationKeysCheck implements BeanFactoryPostProcessor, EnvironmentAware, Ordered {

  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(ConfigurationKeyModel.ROOT);

  private Environment environment;

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
    check(environment, ConfigurationKeyModel.forClassLoader(classLoader));
  }

  static void check(Environment environment, ConfigurationKeyModel model) {
    Map<String, UnknownConfigurationKeysException.UnknownKey> unknown = new LinkedHashMap<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable)
          || source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
        continue; // environment variable names cannot be mapped back to one key unambiguously
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
  }
}
