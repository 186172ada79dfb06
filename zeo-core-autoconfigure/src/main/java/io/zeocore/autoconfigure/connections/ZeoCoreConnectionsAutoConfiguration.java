package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.effect.EffectListener;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.execution.TargetHealthStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of ZeoCore's durable
 * effect orchestration, active once any {@code zeocore.connections.*} property is set or a
 * {@link ZeoCoreStoreConnectionDetails} bean exists, and switched off by {@code zeocore.connections.enabled=false}:
 * <ul>
 *   <li>the store ({@link JdbcConnectionStore}): the embedded SQLite file, the application's DataSource or a JDBC URL
 *       (of {@code store.url}, or of a {@link ZeoCoreStoreConnectionDetails} bean),
 *       its schema migrated at start-up by ZeoCore's private Flyway. Neither its DataSource nor its Flyway is a bean,
 *       so the application's own DataSource and Flyway auto-configurations are unaffected;</li>
 *   <li>the {@link ExactAuthorizationVerifier}, only when {@code zeocore.connections.authorization} is configured, and
 *       with it the {@link EffectOrchestrator} and {@link ReadOrchestrator}. Without it they do not exist: there
 *       is no permissive default;</li>
 *   <li>{@link EffectRecovery} (with the {@link EffectReconcilers} bean, by default the {@link EffectReconciler} beans
 *       by name as reconciliation strategy) run by an {@link EffectRecoveryLifecycle};</li>
 *   <li>every committed transition and receipt published as {@link EffectTransitionEvent} /
 *       {@link ReceiptRecordedEvent} (every {@link EffectListener} bean is told);</li>
 *   <li>a {@link io.zeocore.connections.custody.KeyStoreSecretStore} custody {@code SecretStore} once
 *       {@code zeocore.connections.custody.key-store} is set.</li>
 * </ul>
 * Each bean backs off when the application defines its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(JdbcConnectionStore.class)
@ConditionalOnBooleanProperty(name = "zeocore.connections.enabled", matchIfMissing = true)
@Conditional(StoreConfiguredCondition.class)
@EnableConfigurationProperties(ZeoCoreConnectionsProperties.class)
@Import({ConnectionsConfigurations.Store.class, ConnectionsConfigurations.StoreAfterDatabaseInitialization.class,
    ConnectionsConfigurations.Authorization.class, ConnectionsConfigurations.Orchestrators.class,
    ConnectionsConfigurations.Recovery.class, ConnectionsConfigurations.Custody.class})
public final class ZeoCoreConnectionsAutoConfiguration {

  static final String PREFIX = "zeocore.connections.";

  @Bean
  @ConditionalOnMissingBean
  EffectEventPublisher zeoCoreEffectEventPublisher(ApplicationEventPublisher events) {
    return new EffectEventPublisher(events);
  }

  /**
   * The store's target health table, for {@code zeocore.execution.target-health.sharing: store}: every instance on
   * this store's file or database shares target cooldowns.
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(name = "zeocore.execution.target-health.sharing", havingValue = "store")
  TargetHealthStore zeoCoreTargetHealthStore(JdbcConnectionStore store) {
    return store.targetHealth();
  }
}
