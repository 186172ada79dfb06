package io.zeocore.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.StoreInfo;
import io.zeocore.connections.store.StoreIntrospection;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ZeoCoreHealthContributorAutoConfigurationTests {

  @TempDir
  Path temp;

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class,
          ZeoCoreHealthContributorAutoConfiguration.class));

  @Test
  void embeddedStoreIsUpWithItsSchemaVersionAndPrivateFileModes() {
    contextRunner.withPropertyValues("zeocore.connections.store.path=" + temp.resolve("zeocore.db")).run(context -> {
      Health health = context.getBean("zeocoreHealthIndicator", ZeoCoreHealthIndicator.class).health();
      assertThat(health.getStatus()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsEntry("dialect", "sqlite").containsKey("schemaVersion")
          .containsEntry("file", temp.resolve("zeocore.db").toString()).containsEntry("fileModesPrivate", true);
      // -wal and -shm are listed too when they exist at that moment (WAL mode keeps them while the store is open)
      @SuppressWarnings("unchecked")
      Map<String, String> modes = (Map<String, String>) health.getDetails().get("fileModes");
      assertThat(modes).containsEntry("zeocore.db", "rw-------");
      assertThat(modes.keySet()).isSubsetOf("zeocore.db", "zeocore.db-wal", "zeocore.db-shm");
      assertThat(modes.values()).containsOnly("rw-------");
    });
  }

  @Test
  void storeOnAnUnreachableDatabaseIsDownWithoutShowingItsUrl() {
    String url = "jdbc:sqlite:" + temp.resolve("app.db");
    contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + url, "zeocore.connections.store.datasource=application",
            "zeocore.connections.recovery.enabled=false")
        .run(context -> {
          ZeoCoreHealthIndicator indicator = context.getBean(ZeoCoreHealthIndicator.class);
          assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
          context.getBean(HikariDataSource.class).close();

          Health health = indicator.health();

          assertThat(health.getStatus()).isEqualTo(Status.DOWN);
          assertThat(health.getDetails()).containsKey("failure").doesNotContainKey("file");
          assertThat(health.toString()).doesNotContain(url);
        });
  }

  @Test
  void reportsOnAStoreOfTheApplicationsOwnThatOffersIntrospection() {
    StoreIntrospection own = new StoreIntrospection() {
      @Override
      public StoreInfo info() {
        return new StoreInfo(Dialect.POSTGRESQL, true, "2", null, Map.of(), null);
      }

      @Override
      public Map<EffectState, Long> effectCountsByState() {
        return Map.of();
      }
    };
    contextRunner.withBean(StoreIntrospection.class, () -> own).run(context -> {
      Health health = context.getBean(ZeoCoreHealthIndicator.class).health();
      assertThat(health.getStatus()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsEntry("dialect", "postgresql").containsEntry("schemaVersion", "2");
    });
  }

  @Test
  void isAbsentWithoutAStoreOrWhenDisabled() {
    contextRunner.run(context -> assertThat(context).doesNotHaveBean(ZeoCoreHealthIndicator.class));
    contextRunner.withPropertyValues("zeocore.connections.store.path=" + temp.resolve("zeocore.db"),
        "management.health.zeocore.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(ZeoCoreHealthIndicator.class));
  }
}
