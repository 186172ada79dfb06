package io.zeocore.autoconfigure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class ConfiguredPropertiesTests {

  private static final String PREFIX = "zeocore.connections";

  private static StandardEnvironment environment(Map<String, Object> properties, Map<String, Object> variables) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    // Spring Boot maps ENVIRONMENT_VARIABLE names to property names for the source with the system environment's name
    environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
    return environment;
  }

  private static boolean notAnOffSwitch(ConfigurationPropertyName name) {
    return !name.getLastElement(ConfigurationPropertyName.Form.UNIFORM).equals("enabled");
  }

  @Test
  void seesPropertiesInAnyRelaxedFormAndEnvironmentVariables() {
    assertThat(ConfiguredProperties.anySetUnder(environment(Map.of("zeocore.connections.store.path", "x.db"),
        Map.of()), PREFIX, name -> true)).isTrue();
    assertThat(ConfiguredProperties.anySetUnder(environment(Map.of("zeocore.connections.storeDataSource", "a"),
        Map.of()), PREFIX, name -> true)).as("camel case").isTrue();
    assertThat(ConfiguredProperties.anySetUnder(environment(Map.of(),
        Map.of("ZEOCORE_CONNECTIONS_STORE_PATH", "x.db")), PREFIX, name -> true)).as("environment variable").isTrue();
  }

  @Test
  void countsOnlyTheNamesThePredicateAccepts() {
    StandardEnvironment offSwitchesOnly = environment(Map.of("zeocore.connections.recovery.enabled", "false"),
        Map.of("ZEOCORE_CONNECTIONS_ENABLED", "true"));
    assertThat(ConfiguredProperties.anySetUnder(offSwitchesOnly, PREFIX, name -> true)).isTrue();
    assertThat(ConfiguredProperties.anySetUnder(offSwitchesOnly, PREFIX, ConfiguredPropertiesTests::notAnOffSwitch))
        .isFalse();
  }

  @Test
  void ignoresThePrefixItselfAndItsNeighbours() {
    StandardEnvironment neighbours = environment(Map.of("zeocore.connections", "x", "zeocore.connectionsx.a", "y",
        "zeocore.execution.policies.a.total-timeout", "1s"), Map.of());
    assertThat(ConfiguredProperties.anySetUnder(neighbours, PREFIX, name -> true)).isFalse();
  }
}
