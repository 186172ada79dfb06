package io.zeocore.autoconfigure.connections;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when ZeoCore's connections are configured: a {@code zeocore.connections.*} property other than an off-switch
 * is set, or the application has a {@link ZeoCoreStoreConnectionDetails} bean (a service connection for the store).
 */
final class StoreConfiguredCondition extends AnyNestedCondition {

  StoreConfiguredCondition() {
    super(ConfigurationPhase.REGISTER_BEAN);
  }

  @Conditional(ConfiguredCondition.Connections.class)
  static final class PropertiesSet {}

  @ConditionalOnBean(ZeoCoreStoreConnectionDetails.class)
  static final class DetailsDeclared {}
}
