package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's least-privilege PostgreSQL role, run verbatim (schema and role renamed for isolation): the store works
 * as that role (effects, refusals, recovery with its leases), and DDL, TRUNCATE, trigger tricks and writes to the
 * append-only tables are refused. A failure: a statement of the second kind accepted.
 */
class LeastPrivilegeRoleTest {

  static final String SECTION = "PostgreSQL least-privilege role";

  @Test
  void theDocumentedRoleRunsTheStoreAndCannotChangeTheSchemaOrItsRecord() throws Exception {
    Pg.require(SECTION);
    String schema = Pg.newSchema();
    String role = "zeocore_app_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String grants = readmeGrants().replace("zeocore_app", role).replace("zeocore.", schema + ".")
        .replace("SCHEMA zeocore ", "SCHEMA " + schema + " ");
    Pg.store(schema).close(); // the owner migrates
    try (Connection owner = Pg.dataSource().getConnection(); Statement statement = owner.createStatement()) {
      statement.execute(grants);
    }
    try {
      // normal operation as the role
      try (JdbcConnectionStore store = World.seed(Pg.store(schema, Pg.dataSource(role)))) {
        World.Authority authority = new World.Authority();
        EffectOrchestrator orchestrator = authority.orchestrator(store);
        assertThat(World.execute(orchestrator, authority.sign("lp-0", "k-0", World.body(0)), 0,
            request -> EffectDispatchResult.confirmed("c".repeat(64)), request -> null).state())
            .isEqualTo(EffectState.SUCCEEDED);
        assertThat(World.execute(orchestrator, authority.sign("lp-1", "k-1", World.body(1)), 1, request -> {
          throw new IllegalStateException("reset");
        }, request -> ReconciliationResult.unresolved("e".repeat(64))).state()).isEqualTo(EffectState.AMBIGUOUS);
        var expired = authority.signer.sign(World.unsigned("lp-2", "k-2", World.body(2),
            java.time.Instant.now().minusSeconds(3600)));
        assertThat(World.execute(orchestrator, expired, 2, request -> null, request -> null).effectId())
            .isNotNull(); // an authenticated refusal keeps its audit row
        EffectRecovery recovery = EffectRecovery.builder(store, EffectReconcilers.always(
                request -> ReconciliationResult.confirmed("e".repeat(64), "c".repeat(64))))
            .initialBackoff(Duration.ofMillis(1)).maxBackoff(Duration.ofMillis(1)).build();
        Thread.sleep(5);
        assertThat(recovery.recoverOnce().succeeded()).isEqualTo(1);
        // target health: cooldowns, probe leases and reopening
        var health = store.targetHealth();
        health.coolDown("lp-target", Duration.ofMillis(1), io.zeocore.execution.FailureKind.RATE_LIMIT,
            io.zeocore.execution.TargetHealthStore.CoolingReason.RETRY_AFTER);
        Thread.sleep(5);
        assertThat(health.read()).hasSize(1);
        assertThat(health.tryProbe("lp-target", "role", Duration.ofMinutes(1))).isTrue();
        health.releaseProbe("lp-target", "role");
        health.reopen("lp-target", null);
        assertThat(health.read()).isEmpty();
      }
      // a role that may not migrate cannot create a schema of its own either
      assertThatThrownBy(() -> Pg.store(Pg.newSchema(), Pg.dataSource(role))).isInstanceOf(RuntimeException.class);

      List<String> attacks = new ArrayList<>(List.of(
          "CREATE TABLE " + schema + ".intruder (id INT)",
          "CREATE SCHEMA intruder_" + role,
          "DROP TABLE " + schema + ".receipts",
          "ALTER TABLE " + schema + ".receipts DISABLE TRIGGER ALL",
          "ALTER TABLE " + schema + ".executions ADD COLUMN intruder INT",
          "CREATE OR REPLACE FUNCTION " + schema + ".zeocore_refuse() RETURNS TRIGGER LANGUAGE plpgsql AS"
              + " $$ BEGIN RETURN NULL; END; $$",
          "DROP TRIGGER receipts_no_update ON " + schema + ".receipts",
          "SET session_replication_role = replica",
          "INSERT INTO " + schema + ".zeocore_schema_history (installed_rank, version, description, type, script,"
              + " installed_by, execution_time, success) VALUES (99, '99', 'x', 'SQL', 'x', 'x', 0, true)",
          "INSERT INTO " + schema + ".execution_transitions VALUES ('SUCCEEDED', 'CREATED')",
          "DELETE FROM " + schema + ".dispatch_clock",
          "DELETE FROM " + schema + ".executions",
          "TRUNCATE " + schema + ".target_health",
          "UPDATE " + schema + ".executions SET state = 'FAILED_SAFE' WHERE state = 'SUCCEEDED'"));
      for (String table : List.of("receipts", "evidence_references",
          "authorization_nonces", "connector_revisions", "executions", "dispatch_clock", "recovery_leases")) {
        attacks.add("TRUNCATE " + schema + "." + table);
        attacks.add("UPDATE " + schema + "." + table + " SET organization_id = organization_id");
        attacks.add("DELETE FROM " + schema + "." + table + " WHERE organization_id = 'none'");
      }
      attacks.removeIf(sql -> sql.startsWith("UPDATE " + schema + ".executions SET organization_id")
          || sql.startsWith("UPDATE " + schema + ".recovery_leases") || sql.startsWith("DELETE FROM " + schema
          + ".recovery_leases"));
      List<String> accepted = new ArrayList<>();
      try (Connection app = Pg.dataSource(role).getConnection()) {
        for (String sql : attacks) {
          try (Statement statement = app.createStatement()) {
            statement.execute(sql);
            accepted.add(sql);
          } catch (SQLException refused) {
            // refused: permission denied or a trigger
          }
        }
      }
      Figures.record(SECTION, "DDL, TRUNCATE, trigger tricks and writes to append-only tables as the README's role",
          attacks.size(), accepted.size(), "the statement was accepted (normal effects, refusals and recovery as"
          + " the role are asserted to work)");
      assertThat(accepted).isEmpty();
    } finally {
      Pg.drop(schema);
      try (Connection owner = Pg.dataSource().getConnection(); Statement statement = owner.createStatement()) {
        statement.execute("DROP OWNED BY " + role);
        statement.execute("DROP ROLE " + role);
      }
    }
  }

  /** The SQL block of the README's "Least-privilege role" section, comments removed. */
  static String readmeGrants() throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("reliability.report")).resolveSibling("README.md"));
    int section = readme.indexOf("### Least-privilege role");
    Matcher block = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(section).isPositive();
    assertThat(block.find(section)).isTrue();
    StringBuilder sql = new StringBuilder();
    for (String line : block.group(1).split("\n")) {
      if (!line.startsWith("--")) {
        sql.append(line).append('\n');
      }
    }
    return sql.toString();
  }
}
