package io.zeocore.autoconfigure.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.actuate.ZeoCoreHealthContributorAutoConfiguration;
import io.zeocore.autoconfigure.actuate.ZeoCoreHealthIndicator;
import io.zeocore.autoconfigure.metrics.ZeoCoreEffectMetrics;
import io.zeocore.autoconfigure.metrics.ZeoCoreMetricsAutoConfiguration;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.connections.store.PostgresTestSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code zeocore.connections.store.url} of PostgreSQL, against the real server: the store runs on a pool of its own
 * whose size is {@code pool-size}, reported by the health indicator and the metrics, and closing the application
 * closes its sessions. The tables live in ZeoCore's
 * default schema ({@code zeocore}), dropped after each test.
 */
class StoreOnPostgresUrlTests {

  /** Applies the project's PostgreSQL skip rule to this class; its own schema is not used. */
  @RegisterExtension
  static final PostgresTestSchema server = PostgresTestSchema.migrated();

  private static final OrganizationId ORG = new OrganizationId("org-pool");

  private final String applicationName = "zeocore-url-" + UUID.randomUUID().toString().substring(0, 8);

  @AfterEach
  void dropDefaultSchema() throws Exception {
    try (Connection admin = server.connect(); Statement ddl = admin.createStatement()) {
      ddl.execute("DROP SCHEMA IF EXISTS " + Dialect.POSTGRESQL_SCHEMA + " CASCADE");
    }
  }

  @Test
  void poolSizeBoundsTheSessionsOfTheStoresOwnPoolWhichClosesWithTheApplicationAndReportsItself() throws Exception {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class,
            ZeoCoreHealthContributorAutoConfiguration.class, MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
            ZeoCoreMetricsAutoConfiguration.class))
        .withPropertyValues("zeocore.connections.store.url=" + PostgresTestSchema.jdbcUrl() + "?ApplicationName="
                + applicationName, "zeocore.connections.store.username=" + PostgresTestSchema.user(),
            "zeocore.connections.store.pool-size=2", "zeocore.connections.recovery.enabled=false")
        .run(context -> {
          JdbcConnectionStore store = context.getBean(JdbcConnectionStore.class);
          assertThat(store.info().schemaVersion()).isEqualTo("10");
          ExecutorService callers = Executors.newFixedThreadPool(6);
          try {
            List<Future<Boolean>> claims = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
              int n = i;
              claims.add(callers.submit(() -> store.claimEffect(ORG, "nonce-" + n, created(n)).claimed()));
            }
            for (Future<Boolean> claim : claims) {
              assertThat(claim.get(30, TimeUnit.SECONDS)).isTrue();
            }
          } finally {
            callers.shutdownNow();
          }
          // six callers, at most two sessions (how many overlapped is up to the scheduler)
          int open = store.sessionPool().orElseThrow().idle();
          assertThat(open).isBetween(1, 2);
          assertThat(sessionsSettlingAt(open)).as("the server sees the pool's sessions and no other").isEqualTo(open);

          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get(ZeoCoreEffectMetrics.POOL + ".max").gauge().value()).isEqualTo(2.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.POOL + ".idle").gauge().value()).isEqualTo(open);
          assertThat(registry.get(ZeoCoreEffectMetrics.POOL + ".active").gauge().value()).isZero();
          assertThat(registry.get(ZeoCoreEffectMetrics.POOL + ".pending").gauge().value()).isZero();
          Health health = context.getBean(ZeoCoreHealthIndicator.class).health();
          assertThat(health.getStatus()).isEqualTo(Status.UP);
          assertThat(health.getDetails()).containsEntry("dialect", "postgresql").containsEntry("sessionPool",
              Map.of("max", 2, "active", 0, "idle", open, "pending", 0));
          assertThat(health.getDetails().toString()).doesNotContain(applicationName);
        });
    assertThat(sessionsSettlingAt(0)).as("sessions left after the application closed").isZero();
  }

  /** Sessions of this test's application name, polled until {@code expected} or 10 seconds. */
  private int sessionsSettlingAt(int expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int now = sessions();
    while (now != expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
      now = sessions();
    }
    return now;
  }

  private static List<EffectRecord> created(int n) {
    Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
    EffectId id = new EffectId("exec-" + n);
    return List.of(new EffectRecord(id, ORG, ContractFixtures.CONNECTION, ContractFixtures.REVISION,
        ContractFixtures.CREATE_REFUND, new AuthorizationId("auth-" + n), new IdempotencyKey("key-" + n),
        "sha256:" + "b".repeat(64), Digests.requestDigest(ContractFixtures.BODY), EffectState.CREATED, at, at, null));
  }

  private int sessions() throws Exception {
    try (Connection admin = server.connect(); PreparedStatement count = admin.prepareStatement(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
      count.setString(1, applicationName);
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getInt(1);
      }
    }
  }
}
