package io.zeocore.autoconfigure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class ConfigurationKeyModelPreloadTests {

  private static final ConfigurationPropertyName KNOWN =
      ConfigurationPropertyName.of("zeocore.validation.unknown-keys");

  /** Sees no metadata file at all: its model knows no key. */
  private final ClassLoader bare = new URLClassLoader(new URL[0], null);
  private final ClassLoader application = getClass().getClassLoader();

  @AfterEach
  void takeWhatIsLeft() {
    ConfigurationKeyModel.forClassLoader(bare);
  }

  @Test
  void aPreloadedModelServesTheNextCheckForItsClassLoaderOnce() {
    ConfigurationKeyModel.preload(bare);

    assertThat(ConfigurationKeyModel.preloadWaiting()).isTrue();
    assertThat(ConfigurationKeyModel.forClassLoader(bare).check(KNOWN)).as("the preloaded, empty model").isNotNull();
    assertThat(ConfigurationKeyModel.preloadWaiting()).as("taken").isFalse();
    assertThat(ConfigurationKeyModel.forClassLoader(application).check(KNOWN)).as("read now").isNull();
  }

  @Test
  void aModelPreloadedForAnotherClassLoaderIsNotUsed() {
    ConfigurationKeyModel.preload(bare);

    assertThat(ConfigurationKeyModel.forClassLoader(application).check(KNOWN)).isNull();
    assertThat(ConfigurationKeyModel.forClassLoader(bare).check(KNOWN)).isNotNull();
  }

  @Test
  void preloadsOnlyWhenTheCheckIsOn() {
    StandardEnvironment off = new StandardEnvironment();
    off.getPropertySources().addFirst(new MapPropertySource("test",
        Map.of("zeocore.validation.unknown-keys", "false")));
    SpringApplication bareApplication = new SpringApplication();
    bareApplication.setResourceLoader(new org.springframework.core.io.DefaultResourceLoader(bare));

    new ConfigurationKeyModelPreload().postProcessEnvironment(off, bareApplication);
    assertThat(ConfigurationKeyModel.preloadWaiting()).isFalse();

    new ConfigurationKeyModelPreload().postProcessEnvironment(new StandardEnvironment(), bareApplication);
    assertThat(ConfigurationKeyModel.preloadWaiting()).isTrue();
    assertThat(ConfigurationKeyModel.forClassLoader(bare).check(KNOWN)).as("preloaded with the application's loader")
        .isNotNull();
  }
}
