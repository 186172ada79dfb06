package io.zeocore.autoconfigure.connections;

import static io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration.PREFIX;

import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsProperties.StoreDataSource;
import io.zeocore.autoconfigure.internal.SecretValues;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.custody.KeyStoreSecretStore;
import io.zeocore.connections.custody.SecretStore;
import io.zeocore.connections.effect.EffectListener;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.read.ReadListener;
import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.store.ConnectionStore;
import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.EffectRecoveryStore;
import io.zeocore.connections.store.EffectStore;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.connections.store.ReadStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * The configurations {@link ZeoCoreConnectionsAutoConfiguration} imports, in this order, so that each
 * {@code @ConditionalOnBean} sees the beans of the configurations before it.
 */
final class ConnectionsConfigurations {

  private static final String DATABASE_INITIALIZATION =
      "org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization";

  private ConnectionsConfigurations() {}

  /** The store, when Spring Boot's database initialization support is absent. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(ConnectionStore.class)
  @ConditionalOnMissingClass(DATABASE_INITIALIZATION)
  static class Store {

    @Bean
    JdbcConnectionStore zeoCoreConnectionStore(ZeoCoreConnectionsProperties properties,
        ObjectProvider<ZeoCoreStoreConnectionDetails> details, ObjectProvider<DataSource> dataSources,
        Environment environment, ResourceLoader resourceLoader) {
      return openStore(properties, details.getIfAvailable(), dataSources, environment,
          resourceLoader.getClassLoader());
    }
  }

  /**
   * The store, opened after the application's database initializers (its Flyway, Liquibase or SQL scripts) have run:
   * on a database it shares with the application, ZeoCore's migrations then find the application's schema in place
   * and baseline beside it.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(ConnectionStore.class)
  @ConditionalOnClass(name = DATABASE_INITIALIZATION)
  static class StoreAfterDatabaseInitialization {

    @Bean
    @DependsOnDatabaseInitialization
    JdbcConnectionStore zeoCoreConnectionStore(ZeoCoreConnectionsProperties properties,
        ObjectProvider<ZeoCoreStoreConnectionDetails> details, ObjectProvider<DataSource> dataSources,
        Environment environment, ResourceLoader resourceLoader) {
      return openStore(properties, details.getIfAvailable(), dataSources, environment,
          resourceLoader.getClassLoader());
    }
  }

  /**
   * Opens the store the connection details (a service connection's) or else the properties describe; see
   * {@link ZeoCoreConnectionsProperties.Store}. Every other {@code zeocore.connections.*} setting is checked first, so
   * that a configuration that cannot start creates no database file and migrates nothing.
   */
  static JdbcConnectionStore openStore(ZeoCoreConnectionsProperties properties,
      @Nullable ZeoCoreStoreConnectionDetails details, ObjectProvider<DataSource> dataSources,
      Environment environment, @Nullable ClassLoader classLoader) {
    checkBeforeOpening(properties, details, environment);
    ZeoCoreConnectionsProperties.Store store = properties.getStore();
    if (details != null) {
      return onUrl(details.getJdbcUrl(), details.getUsername(), details.getPassword(), store, classLoader);
    }
    if (store.getUrl() != null && !store.getUrl().isBlank()) {
      if (store.getDatasource() == StoreDataSource.APPLICATION) {
        // the url is never echoed: it may carry credentials
        throw new InvalidConfigurationPropertyValueException(PREFIX + "store.datasource", "application",
            "set either zeocore.connections.store.url or zeocore.connections.store.datasource=application, "
                + "not both");
      }
      return onUrl(store.getUrl(), store.getUsername(), store.getPassword(), store, classLoader);
    }
    if (store.getDatasource() == StoreDataSource.APPLICATION) {
      DataSource dataSource = dataSources.getIfUnique();
      if (dataSource == null) {
        throw new InvalidConfigurationPropertyValueException(PREFIX + "store.datasource", "application",
            "the store is to use the application's DataSource, but there is no single DataSource bean");
      }
      return JdbcConnectionStore.forDataSource(dataSource);
    }
    if (store.getPath() == null) {
      throw new InvalidConfigurationPropertyValueException(PREFIX + "store.path", null,
          "the embedded store needs a file path");
    }
    return JdbcConnectionStore.openSqlite(store.getPath());
  }

  /**
   * The store on {@code url}; a PostgreSQL URL first needs its driver and Flyway's PostgreSQL support on the
   * application's class path ({@link PostgresStoreSupportMissingException} names what is missing).
   */
  private static JdbcConnectionStore onUrl(String url, @Nullable String username, @Nullable String password,
      ZeoCoreConnectionsProperties.Store store, @Nullable ClassLoader classLoader) {
    if (Dialect.fromJdbcUrl(url) == Dialect.POSTGRESQL) {
      List<PostgresStoreSupport> missing = PostgresStoreSupport.missing(
          classLoader != null ? classLoader : ConnectionsConfigurations.class.getClassLoader());
      if (!missing.isEmpty()) {
        throw new PostgresStoreSupportMissingException(missing);
      }
    }
    JdbcConnectionStore.Builder onUrl = JdbcConnectionStore.builder().jdbcUrl(url, username, password);
    if (store.getPoolSize() != null) {
      onUrl.poolSize(store.getPoolSize());
    }
    return onUrl.build();
  }

  /**
   * The checks of every setting that would otherwise fail only after the store was opened: authorization (when
   * configured), recovery durations, custody, and secrets left as unresolved placeholders.
   */
  private static void checkBeforeOpening(ZeoCoreConnectionsProperties properties,
      @Nullable ZeoCoreStoreConnectionDetails details, Environment environment) {
    SecretValues.requireResolved(PREFIX + "store.password", properties.getStore().getPassword());
    SecretValues.requireResolved(PREFIX + "store.url", properties.getStore().getUrl());
    checkPoolSize(properties.getStore(), details != null ? details.getJdbcUrl() : properties.getStore().getUrl());
    if (ConfiguredCondition.isConfigured(environment, PREFIX + "authorization")) {
      AuthorizationVerifiers.fromProperties(properties.getAuthorization());
    }
    Recovery.check(properties.getRecovery());
    Orchestrators.check(properties.getReads());
    if (properties.getCustody().getKeyStore() != null) {
      Custody.check(properties.getCustody());
    }
  }

  /** A pool size is a setting of ZeoCore's own pool, which only a PostgreSQL url gets. */
  private static void checkPoolSize(ZeoCoreConnectionsProperties.Store store, @Nullable String url) {
    Integer size = store.getPoolSize();
    if (size == null) {
      return;
    }
    if (size < 1) {
      throw new InvalidConfigurationPropertyValueException(PREFIX + "store.pool-size", size, "must be at least 1");
    }
    if (url == null || url.isBlank() || Dialect.fromJdbcUrl(url) != Dialect.POSTGRESQL) {
      throw new InvalidConfigurationPropertyValueException(PREFIX + "store.pool-size", size,
          "only a zeocore.connections.store.url of PostgreSQL (jdbc:postgresql:...) gets a pool of ZeoCore's own; "
              + "the embedded SQLite store has one writer connection, and datasource=application uses the "
              + "application's pool");
    }
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(ConfiguredCondition.Authorization.class)
  static class Authorization {

    @Bean
    @ConditionalOnMissingBean
    ExactAuthorizationVerifier zeoCoreAuthorizationVerifier(ZeoCoreConnectionsProperties properties) {
      return AuthorizationVerifiers.fromProperties(properties.getAuthorization());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean(ExactAuthorizationVerifier.class)
  static class Orchestrators {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(EffectStore.class)
    EffectOrchestrator zeoCoreEffectOrchestrator(EffectStore store, ExactAuthorizationVerifier verifier,
        ObjectProvider<EffectListener> listeners) {
      EffectOrchestrator.Builder builder = EffectOrchestrator.builder(store, verifier);
      listeners.orderedStream().forEach(builder::listener);
      return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ReadStore.class)
    ReadOrchestrator zeoCoreReadOrchestrator(ReadStore store,
        ExactAuthorizationVerifier verifier, ZeoCoreConnectionsProperties properties,
        ObjectProvider<ReadListener> listeners) {
      ReadOrchestrator.Builder builder = ReadOrchestrator.builder(store, verifier)
          .maxResultDepth(properties.getReads().getMaxResultDepth());
      listeners.orderedStream().forEach(builder::listener);
      return builder.build();
    }

    static void check(ZeoCoreConnectionsProperties.Reads reads) {
      int depth = reads.getMaxResultDepth();
      if (depth < 1 || depth > ReadOrchestrator.DEFAULT_MAX_RESULT_DEPTH) {
        throw new InvalidConfigurationPropertyValueException(PREFIX + "reads.max-result-depth", depth,
            "must be between 1 and " + ReadOrchestrator.DEFAULT_MAX_RESULT_DEPTH);
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean(EffectRecoveryStore.class)
  static class Recovery {

    @Bean
    @ConditionalOnMissingBean
    EffectReconcilers zeoCoreEffectReconcilers(ListableBeanFactory beans) {
      return EffectReconcilers.byStrategy(beans.getBeansOfType(EffectReconciler.class));
    }

    @Bean
    @ConditionalOnMissingBean
    EffectRecovery zeoCoreEffectRecovery(EffectRecoveryStore store, EffectReconcilers reconcilers,
        ObjectProvider<EffectListener> listeners, ZeoCoreConnectionsProperties properties) {
      ZeoCoreConnectionsProperties.Recovery recovery = properties.getRecovery();
      check(recovery);
      EffectRecovery.Builder builder = EffectRecovery.builder(store, reconcilers);
      builder.dispatchStaleAfter(recovery.getDispatchStaleAfter()).initialBackoff(recovery.getInitialBackoff())
          .maxBackoff(recovery.getMaxBackoff()).batchSize(recovery.getBatchSize());
      listeners.orderedStream().forEach(builder::listener);
      return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "zeocore.connections.recovery.enabled", matchIfMissing = true)
    EffectRecoveryLifecycle zeoCoreEffectRecoveryLifecycle(EffectRecovery recovery,
        ZeoCoreConnectionsProperties properties) {
      return new EffectRecoveryLifecycle(recovery, properties.getRecovery().getInterval());
    }

    static void check(ZeoCoreConnectionsProperties.Recovery recovery) {
      String prefix = PREFIX + "recovery.";
      positive(prefix + "dispatch-stale-after", recovery.getDispatchStaleAfter());
      positive(prefix + "initial-backoff", recovery.getInitialBackoff());
      positive(prefix + "max-backoff", recovery.getMaxBackoff());
      positive(prefix + "interval", recovery.getInterval());
      if (recovery.getBatchSize() < 1) {
        throw new InvalidConfigurationPropertyValueException(prefix + "batch-size", recovery.getBatchSize(),
            "batch-size must be at least 1");
      }
    }

    private static void positive(String property, Duration value) {
      if (value == null || value.isZero() || value.isNegative()) {
        throw new InvalidConfigurationPropertyValueException(property, value, "must be a positive duration");
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "zeocore.connections.custody", name = "key-store")
  @ConditionalOnMissingBean(SecretStore.class)
  static class Custody {

    @Bean
    KeyStoreSecretStore zeoCoreSecretStore(ZeoCoreConnectionsProperties properties) {
      ZeoCoreConnectionsProperties.Custody custody = properties.getCustody();
      String prefix = PREFIX + "custody.";
      check(custody);
      Duration ttl = custody.getLeaseTtl();
      // present: the condition requires key-store, check(custody) a password
      Path keyStore = Objects.requireNonNull(custody.getKeyStore(), "key-store");
      char[] password = Objects.requireNonNull(custody.getPassword(), "password").toCharArray();
      try {
        return KeyStoreSecretStore.open(keyStore, password, Clock.systemUTC(), ttl);
      } catch (IllegalStateException unusable) {
        // the message names the file, never the password
        throw new InvalidConfigurationPropertyValueException(prefix + "key-store", keyStore,
            unusable.getMessage());
      } finally {
        Arrays.fill(password, '\0');
      }
    }

    static void check(ZeoCoreConnectionsProperties.Custody custody) {
      String prefix = PREFIX + "custody.";
      if (custody.getPassword() == null || custody.getPassword().isEmpty()) {
        throw new InvalidConfigurationPropertyValueException(prefix + "password", null,
            "the keystore needs a password, e.g. ${ZEOCORE_CUSTODY_PASSWORD}; there is no default");
      }
      SecretValues.requireResolved(prefix + "password", custody.getPassword());
      Duration ttl = custody.getLeaseTtl();
      if (ttl == null || ttl.isZero() || ttl.isNegative()) {
        throw new InvalidConfigurationPropertyValueException(prefix + "lease-ttl", ttl, "must be a positive duration");
      }
    }
  }

  /** Builds the verifier from {@code zeocore.connections.authorization.*}, naming the property of any problem. */
  static final class AuthorizationVerifiers {

    private AuthorizationVerifiers() {}

    static ExactAuthorizationVerifier fromProperties(ZeoCoreConnectionsProperties.Authorization authorization) {
      String prefix = PREFIX + "authorization.";
      if (authorization.getAudience() == null || authorization.getAudience().isBlank()) {
        throw new InvalidConfigurationPropertyValueException(prefix + "audience", authorization.getAudience(),
            "audience is required once zeocore.connections.authorization is configured; there is no default");
      }
      Set<String> issuers = authorization.getTrustedIssuers();
      if (issuers == null || issuers.isEmpty()) {
        throw new InvalidConfigurationPropertyValueException(prefix + "trusted-issuers", issuers,
            "at least one trusted issuer is required; there is no default");
      }
      for (String issuer : authorization.getTrustRoots().keySet()) {
        if (!issuers.contains(issuer)) {
          throw new InvalidConfigurationPropertyValueException(prefix + "trust-roots." + issuer, null,
              "issuer '" + issuer + "' has trust roots but is not in trusted-issuers " + issuers);
        }
      }
      Map<String, List<PublicKey>> roots = new LinkedHashMap<>();
      for (String issuer : issuers) {
        List<Resource> resources = authorization.getTrustRoots().get(issuer);
        if (resources == null || resources.isEmpty()) {
          throw new InvalidConfigurationPropertyValueException(prefix + "trust-roots." + issuer, null,
              "trusted issuer '" + issuer + "' needs at least one Ed25519 public key (a PEM resource)");
        }
        List<PublicKey> keys = new ArrayList<>();
        for (int i = 0; i < resources.size(); i++) {
          keys.add(publicKey(prefix + "trust-roots." + issuer + "[" + i + "]", resources.get(i)));
        }
        roots.put(issuer, keys);
      }
      try {
        return new ExactAuthorizationVerifier(new Ed25519SignatureVerifier(roots), authorization.getAudience(),
            issuers, authorization.getIssuedAtSkew());
      } catch (IllegalArgumentException invalid) {
        throw new InvalidConfigurationPropertyValueException(prefix.substring(0, prefix.length() - 1), null,
            invalid.getMessage());
      }
    }

    private static PublicKey publicKey(String property, Resource resource) {
      String pem;
      try (InputStream in = resource.getInputStream()) {
        pem = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      } catch (IOException unreadable) {
        throw new InvalidConfigurationPropertyValueException(property, resource.getDescription(),
            "the trust root cannot be read");
      }
      try {
        return Ed25519Keys.parsePublicKeyPem(pem);
      } catch (IllegalArgumentException invalid) {
        // the library's message never contains key material
        throw new InvalidConfigurationPropertyValueException(property, resource.getDescription(),
            "the trust root is not an Ed25519 public key in PEM form (" + invalid.getMessage() + ")");
      }
    }
  }
}
