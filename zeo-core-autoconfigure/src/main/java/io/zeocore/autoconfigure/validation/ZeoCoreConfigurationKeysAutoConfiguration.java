package io.zeocore.autoconfigure.validation;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the check that stops
 * start-up on an unknown {@code zeocore.*} key (see {@link ConfigurationKeysCheck}). It can be switched off with
 * {@code zeocore.validation.unknown-keys=false}, for example while moving between ZeoCore versions.
 */
@AutoConfiguration
@AutoConfigureOrder(Ordered.HIGHEST_PRECEDENCE)
@ConditionalOnBooleanProperty(name = "zeocore.validation.unknown-keys", matchIfMissing = true)
public final class ZeoCoreConfigurationKeysAutoConfiguration {

  @Bean
  static ConfigurationKeysCheck zeoCoreConfigurationKeysCheck() {
    return new ConfigurationKeysCheck();
  }
}
