package io.zeocore.autoconfigure.connections;

import static io.zeocore.autoconfigure.connections.EffectFixtures.CANARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectListener;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.io.support.SpringFactoriesLoader;

class ZeoCoreConnectionsAutoConfigurationTests {

  @TempDir
  Path temp;

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class));

  private ApplicationContextRunner withStore() {
    return contextRunner.withPropertyValues("zeocore.connections.store.path=" + temp.resolve("store/zeocore.db"));
  }

  private ApplicationContextRunner withAuthorization() throws Exception {
    return withStore().withPropertyValues(EffectFixtures.authorizationProperties(EffectFixtures.writePublicKey(temp)));
  }

  @Test
  void createsNothingAndWritesNoFileUntilConnectionsAreConfigured() {
    contextRunner.run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(JdbcConnectionStore.class)
          .doesNotHaveBean(EffectOrchestrator.class).doesNotHaveBean(EffectRecovery.class);
      assertThat(Path.of("data")).doesNotExist();
    });
  }

  @Test
  void aStoreConnectionDetailsBeanAloneOpensTheStoreAtItsUrlAheadOfTheProperties() {
    Path detailsFile = temp.resolve("details/zeocore.db");
    Path propertiesFile = temp.resolve("properties/zeocore.db");
    contextRunner.withPropertyValues("zeocore.connections.store.path=" + propertiesFile)
        .withBean(ZeoCoreStoreConnectionDetails.class,
            () -> ZeoCoreStoreConnectionDetails.of("jdbc:sqlite:" + detailsFile, null, null))
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(JdbcConnectionStore.class);
          assertThat(context.getBean(JdbcConnectionStore.class).info().reachable()).isTrue();
          assertThat(detailsFile).exists();
          assertThat(propertiesFile).doesNotExist();
        });
    Path aloneFile = temp.resolve("alone/zeocore.db");
    contextRunner.withBean(ZeoCoreStoreConnectionDetails.class,
            () -> ZeoCoreStoreConnectionDetails.of("jdbc:sqlite:" + aloneFile, null, null))
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(JdbcConnectionStore.class);
          assertThat(aloneFile).as("no zeocore.connections property is needed").exists();
        });
  }

  @Test
  void storeConnectionDetailsNeverShowTheirUrlOrPassword() {
    ZeoCoreStoreConnectionDetails details = ZeoCoreStoreConnectionDetails.of(
        "jdbc:postgresql://db.internal/app?password=canary-url-5c1", "zeocore", "canary-password-5c1");

    assertThat(details.toString()).doesNotContain("canary").contains("zeocore");
    assertThatIllegalArgumentException().isThrownBy(() -> ZeoCoreStoreConnectionDetails.of(" ", null, null));
  }

  @Test
  void anOffSwitchAloneConfiguresNothingAndCreatesNoFile() {
    contextRunner.withPropertyValues("zeocore.connections.recovery.enabled=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(JdbcConnectionStore.class)
          .doesNotHaveBean(EffectRecovery.class);
      assertThat(Path.of("data")).doesNotExist();
    });
  }

  @Test
  void aConfigurationThatCannotStartCreatesNoDatabaseFile() {
    Path file = temp.resolve("store/zeocore.db");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.authorization.audience=zeocore"),
        "zeocore.connections.authorization.trusted-issuers", "at least one trusted issuer is required");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.recovery.interval=0s"),
        "zeocore.connections.recovery.interval", "must be a positive duration");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.custody.key-store=" + temp.resolve("ks.p12")),
        "zeocore.connections.custody.password", "needs a password");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.reads.max-result-depth=101"),
        "zeocore.connections.reads.max-result-depth", "must be between 1 and 100");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.reads.max-result-depth=0"),
        "zeocore.connections.reads.max-result-depth", "must be between 1 and 100");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.store.pool-size=4"),
        "zeocore.connections.store.pool-size", "only a zeocore.connections.store.url of PostgreSQL");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.store.url=jdbc:sqlite:" + file,
        "zeocore.connections.store.pool-size=4"), "zeocore.connections.store.pool-size", "one writer connection");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.store.url=jdbc:postgresql://127.0.0.1:1/x",
        "zeocore.connections.store.pool-size=0"), "zeocore.connections.store.pool-size", "must be at least 1");
    assertThat(file).doesNotExist();
    assertThat(file.getParent()).doesNotExist();
  }

  @Test
  void anUnresolvedPlaceholderInASecretStopsStartUpNamingThePropertyButNotTheValue() {
    String placeholder = "${ZEOCORE_CANARY_UNSET_" + CANARY + "}";
    withStore().withPropertyValues("zeocore.connections.custody.key-store=" + temp.resolve("ks.p12"),
        "zeocore.connections.custody.password=" + placeholder).run(context -> {
          assertThat(context.getStartupFailure()).rootCause()
              .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, invalid -> {
                assertThat(invalid.getName()).isEqualTo("zeocore.connections.custody.password");
                assertThat(invalid.getReason()).contains("unresolved ${...} placeholder");
                assertThat(invalid.getValue()).isNull();
              });
          assertThat(context.getStartupFailure()).rootCause().message().doesNotContain(CANARY);
          assertThat(temp.resolve("store/zeocore.db")).doesNotExist();
        });
  }

  @Test
  void embeddedStoreFileIsCreated0600InA0700DirectoryWithoutAnOrchestratorUntilAuthorizationIsConfigured() {
    withStore().run(context -> {
      assertThat(context).hasSingleBean(JdbcConnectionStore.class).hasSingleBean(EffectRecovery.class)
          .hasSingleBean(EffectRecoveryLifecycle.class).doesNotHaveBean(ExactAuthorizationVerifier.class)
          .doesNotHaveBean(EffectOrchestrator.class).doesNotHaveBean(ReadOrchestrator.class)
          .doesNotHaveBean(DataSource.class).doesNotHaveBean(Flyway.class);
      Path file = temp.resolve("store/zeocore.db");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
          .isEqualTo("rwx------");
      assertThat(context.getBean(JdbcConnectionStore.class).info().schemaVersion()).isNotNull();
      assertThat(context.getBean(EffectRecoveryLifecycle.class).isRunning()).isTrue();
    });
  }

  @Test
  void opensTheStoreAlsoWithoutSpringBootsDatabaseInitializationSupport() {
    withStore().withClassLoader(new FilteredClassLoader("org.springframework.boot.sql"))
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(JdbcConnectionStore.class));
  }

  @Test
  void usingAnOrchestratorWithoutAuthorizationFailsStartUpWithAClearMessage() {
    withStore().withUserConfiguration(NeedsOrchestrator.class).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = new MissingOrchestratorFailureAnalyzer().analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).startsWith("No EffectOrchestrator bean exists")
          .contains("there is no permissive default");
      assertThat(analysis.getAction()).contains("zeocore.connections.authorization.audience",
          "zeocore.connections.authorization.trusted-issuers", "zeocore.connections.authorization.trust-roots");
    });
    assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class, null,
        (type, implementation, failure) -> { /* analyzers needing constructor arguments are not the point here */ }))
        .hasAtLeastOneElementOfType(MissingOrchestratorFailureAnalyzer.class);
  }

  @Test
  void configuredAuthorizationRunsAnEffectEndToEndPublishingEachCommittedTransitionAndReceiptInOrder()
      throws Exception {
    withAuthorization().withUserConfiguration(EffectEvents.class).run(context -> {
      assertThat(context).hasSingleBean(ExactAuthorizationVerifier.class).hasSingleBean(EffectOrchestrator.class)
          .hasSingleBean(ReadOrchestrator.class);
      EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));

      EffectResult result = EffectFixtures.refund(context.getBean(EffectOrchestrator.class), "exec-1");

      assertThat(result.state()).isEqualTo(EffectState.SUCCEEDED);
      List<Object> events = context.getBean(EffectEvents.class).received;
      List<String> sequence = new ArrayList<>();
      for (Object event : events) {
        sequence.add(event instanceof EffectTransitionEvent transition
            ? transition.previousState() + "->" + transition.state()
            : "receipt " + ((ReceiptRecordedEvent) event).receipt().finalState());
      }
      assertThat(sequence).containsExactly("null->CREATED", "CREATED->AUTHORIZATION_VERIFIED",
          "AUTHORIZATION_VERIFIED->PREPARED", "PREPARED->DISPATCH_STARTED", "DISPATCH_STARTED->SUCCEEDED",
          "receipt SUCCEEDED");
      assertThat(events).allSatisfy(event -> assertThat(event.toString()).doesNotContain(CANARY));
    });
  }

  @Test
  void theReadOrchestratorStoresResultsNestedAtMostTheConfiguredDepth() throws Exception {
    withAuthorization().run(context -> assertThat(context.getBean(ReadOrchestrator.class).maxResultDepth())
        .isEqualTo(ReadOrchestrator.DEFAULT_MAX_RESULT_DEPTH));
    withAuthorization().withPropertyValues("zeocore.connections.reads.max-result-depth=8").run(context ->
        assertThat(context.getBean(ReadOrchestrator.class).maxResultDepth()).isEqualTo(8));
  }

  @Test
  void recoveryReconcilesAnAmbiguousEffectThroughTheReconcilerBeanNamedAfterTheStrategy() throws Exception {
    withAuthorization().withUserConfiguration(EffectEvents.class, Reconcilers.class)
        .withPropertyValues("zeocore.connections.recovery.enabled=false",
            "zeocore.connections.recovery.initial-backoff=1ms")
        .run(context -> {
          assertThat(context).doesNotHaveBean(EffectRecoveryLifecycle.class);

          EffectRecovery.Sweep sweep = EffectFixtures.recoverAnAmbiguousRefund(context, "exec-2");

          assertThat(sweep.succeeded()).isEqualTo(1);
          List<Object> events = context.getBean(EffectEvents.class).received;
          assertThat(events.get(events.size() - 2)).isInstanceOfSatisfying(EffectTransitionEvent.class,
              event -> assertThat(event.state()).isEqualTo(EffectState.SUCCEEDED));
          assertThat(events).allSatisfy(event -> assertThat(event.toString()).doesNotContain(CANARY));
        });
  }

  @Test
  void incompleteOrInvalidAuthorizationStopsStartUpNamingTheProperty() throws Exception {
    Path key = EffectFixtures.writePublicKey(temp);
    Path notAKey = Files.writeString(temp.resolve("not-a-key.pem"), "-----BEGIN PUBLIC KEY-----\nAAAA\n"
        + "-----END PUBLIC KEY-----\n");
    String issuers = "zeocore.connections.authorization.trusted-issuers=zeo-go";
    assertInvalid(withStore().withPropertyValues(issuers,
            "zeocore.connections.authorization.trust-roots.zeo-go=file:" + key),
        "zeocore.connections.authorization.audience", "audience is required");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.authorization.audience=zeocore"),
        "zeocore.connections.authorization.trusted-issuers", "at least one trusted issuer is required");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.authorization.audience=zeocore", issuers),
        "zeocore.connections.authorization.trust-roots.zeo-go", "needs at least one Ed25519 public key");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.authorization.audience=zeocore", issuers,
            "zeocore.connections.authorization.trust-roots.zeo-go=file:" + notAKey),
        "zeocore.connections.authorization.trust-roots.zeo-go[0]", "not an Ed25519 public key in PEM form");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.authorization.audience=zeocore", issuers,
            "zeocore.connections.authorization.trust-roots.zeo-go=file:" + temp.resolve("missing.pub")),
        "zeocore.connections.authorization.trust-roots.zeo-go[0]", "cannot be read");
    assertInvalid(withStore().withPropertyValues("zeocore.connections.authorization.audience=zeocore", issuers,
            "zeocore.connections.authorization.trust-roots.zeo-go=file:" + key,
            "zeocore.connections.authorization.trust-roots.other=file:" + key),
        "zeocore.connections.authorization.trust-roots.other", "is not in trusted-issuers");
  }

  @Test
  void applicationsOwnFlywayMigrationsRunBesideZeoCoresOnTheApplicationsDataSource() {
    Path database = temp.resolve("app.db");
    contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            FlywayAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=jdbc:sqlite:" + database,
            "spring.flyway.locations=classpath:app-migrations", "zeocore.connections.store.datasource=application")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(DataSource.class).hasSingleBean(Flyway.class);
          assertThat(context.getBean(JdbcConnectionStore.class).info().schemaVersion()).isNotNull();
          try (Connection connection = context.getBean(DataSource.class).getConnection();
              ResultSet tables = connection.getMetaData().getTables(null, null, "%", null)) {
            List<String> names = new ArrayList<>();
            while (tables.next()) {
              names.add(tables.getString("TABLE_NAME"));
            }
            assertThat(names).contains("orders", "flyway_schema_history", "zeocore_schema_history", "executions");
          }
        });
  }

  @Test
  void applicationsOwnDataSourceAndFlywayAreUntouchedByTheEmbeddedStore() {
    withStore().withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            FlywayAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=jdbc:sqlite:" + temp.resolve("app.db"),
            "spring.flyway.locations=classpath:app-migrations")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(DataSource.class).hasSingleBean(Flyway.class);
          assertThat(context.getBean(Flyway.class).info().current().getVersion().getVersion()).isEqualTo("1");
          assertThat(context.getBean(JdbcConnectionStore.class).databaseFile())
              .contains(temp.resolve("store/zeocore.db"));
        });
  }

  @Test
  void applicationDataSourceModeWithoutADataSourceStopsStartUp() {
    assertInvalid(contextRunner.withPropertyValues("zeocore.connections.store.datasource=application"),
        "zeocore.connections.store.datasource", "there is no single DataSource bean");
  }

  @Test
  void backsOffWhenDisabledOrForTheApplicationsOwnBeans() throws Exception {
    withStore().withPropertyValues("zeocore.connections.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(JdbcConnectionStore.class));
    withAuthorization().withUserConfiguration(UserBeans.class).run(context -> {
      assertThat(context.getBean(JdbcConnectionStore.class)).isSameAs(context.getBean("myStore"));
      assertThat(context.getBean(EffectOrchestrator.class)).isSameAs(context.getBean("myOrchestrator"));
    });
  }

  private static void assertInvalid(ApplicationContextRunner runner, String property, String reason) {
    runner.run(context -> assertThat(context.getStartupFailure()).rootCause()
        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, invalid -> {
          assertThat(invalid.getName()).isEqualTo(property);
          assertThat(invalid.getReason()).contains(reason);
        }));
  }

  @Configuration(proxyBeanMethods = false)
  static class NeedsOrchestrator {

    @Autowired
    EffectOrchestrator orchestrator;
  }

  @Configuration(proxyBeanMethods = false)
  static class EffectEvents {

    final List<Object> received = new CopyOnWriteArrayList<>();

    @EventListener
    void transition(EffectTransitionEvent event) {
      received.add(event);
    }

    @EventListener
    void receipt(ReceiptRecordedEvent event) {
      received.add(event);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Reconcilers {

    @Bean(EffectFixtures.STRATEGY)
    EffectReconciler lookupByIdempotencyKey() {
      return EffectFixtures.confirming();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserBeans {

    @Bean
    JdbcConnectionStore myStore(@org.springframework.beans.factory.annotation.Value("${zeocore.connections.store.path}")
        Path path) {
      return JdbcConnectionStore.openSqlite(path.resolveSibling("mine.db"));
    }

    @Bean
    EffectOrchestrator myOrchestrator(JdbcConnectionStore store, ExactAuthorizationVerifier verifier) {
      return EffectOrchestrator.builder(store, verifier).listener(new EffectListener() {}).build();
    }
  }
}
