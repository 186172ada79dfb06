package io.zeocore.autoconfigure.validation;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Starts reading the configuration-key model ({@link ConfigurationKeyModel}: every {@code zeocore.} group and property
 * of the configuration-metadata files on the class path) on a background thread as soon as the environment is known,
 * so that {@link ConfigurationKeysCheck}, which runs before any bean is created, finds it read instead of reading it
 * on the main thread. Only when the check is on ({@code zeocore.validation.unknown-keys}, default {@code true}). It
 * decides nothing: the check itself, on the main thread, waits for the model, or reads it when the preload used
 * another class loader or failed, and stops start-up exactly as without it.
 */
public final class ConfigurationKeyModelPreload implements EnvironmentPostProcessor {

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    if (!environment.getProperty("zeocore.validation.unknown-keys", Boolean.class, true)) {
      return;
    }
    ConfigurationKeyModel.preload(application.getClassLoader());
  }
}
