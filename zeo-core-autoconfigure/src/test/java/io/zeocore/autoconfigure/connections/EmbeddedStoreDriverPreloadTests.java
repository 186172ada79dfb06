package io.zeocore.autoconfigure.connections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class EmbeddedStoreDriverPreloadTests {

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return environment;
  }

  @Test
  void preloadsOnlyForZeoCoresOwnSqliteFile() {
    assertThat(EmbeddedStoreDriverPreload.embeddedStore(environment(Map.of(
        "zeocore.connections.store.path", "data/zeocore.db")))).isTrue();
    assertThat(EmbeddedStoreDriverPreload.embeddedStore(environment(Map.of(
        "zeocore.connections.authorization.audience", "zeocore")))).as("the default file").isTrue();
    assertThat(EmbeddedStoreDriverPreload.embeddedStore(environment(Map.of()))).as("no store").isFalse();
    assertThat(EmbeddedStoreDriverPreload.embeddedStore(environment(Map.of(
        "zeocore.connections.store.url", "jdbc:postgresql://127.0.0.1/test")))).isFalse();
    assertThat(EmbeddedStoreDriverPreload.embeddedStore(environment(Map.of(
        "zeocore.connections.store.datasource", "application")))).isFalse();
    assertThat(EmbeddedStoreDriverPreload.embeddedStore(environment(Map.of(
        "zeocore.connections.enabled", "false", "zeocore.connections.store.path", "x.db")))).isFalse();
  }

  @Test
  void preloadingOpensNothingAndNeverFailsStartUp() {
    StandardEnvironment configured = environment(Map.of("zeocore.connections.store.path", "never-created.db"));

    assertThatCode(() -> new EmbeddedStoreDriverPreload().postProcessEnvironment(configured,
        new SpringApplication())).doesNotThrowAnyException();

    assertThat(java.nio.file.Path.of("never-created.db")).doesNotExist();
  }
}
