package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw SQL against the schema's own guarantees, bypassing the store: on a database holding a succeeded, a failed-safe,
 * an ambiguity-resolved and a refused effect, every statement below tries to rewrite or erase the record. SQLite is
 * attacked through a plain driver connection without the store's settings (no {@code recursive_triggers}), PostgreSQL
 * as the tables' owner without {@code session_replication_role}. A failure: the statement changed any row of any table.
 */
class RawSqlAttackTest {

  static final String SECTION = "Raw-SQL attacks on the append-only schema";
  // an execution's history is a column of executions (SQLite schema version 7, PostgreSQL version 6), an evidence
  // reference and its confirmation are one row of evidence_references (SQLite version 8, PostgreSQL version 7)
  static final List<String> TABLES = List.of("connector_revisions", "execution_transitions", "executions",
      "authorization_nonces", "evidence_references", "receipts");
  static final List<String> APPEND_ONLY = List.of("connector_revisions", "execution_transitions",
      "authorization_nonces", "evidence_references", "receipts");

  @TempDir
  Path temp;

  static List<String> commonAttacks() {
    List<String> attacks = new ArrayList<>();
    for (String table : APPEND_ONLY) {
      attacks.add("DELETE FROM " + table);
      attacks.add("UPDATE " + table + " SET organization_id = organization_id"
          .replace("organization_id = organization_id", table.equals("execution_transitions")
              ? "to_state = 'CREATED'" : "organization_id = 'other-org'"));
    }
    attacks.add("UPDATE receipts SET final_state = 'FAILED_SAFE' WHERE final_state = 'SUCCEEDED'");
    attacks.add("UPDATE receipts SET error_message = 'rewritten'");
    attacks.add("UPDATE evidence_references SET confirmation_digest = '" + "0".repeat(64) + "'");
    // a confirmation shares its reference's row: neither can be erased without the other
    attacks.add("UPDATE evidence_references SET observed_at = NULL, confirmation_digest = NULL");
    attacks.add("UPDATE authorization_nonces SET nonce = 'fresh-' || nonce");
    attacks.add("DELETE FROM executions");
    attacks.add("DELETE FROM executions WHERE state = 'REFUSED'");
    attacks.add("UPDATE executions SET state = 'DISPATCH_STARTED', completed_at = NULL WHERE state = 'SUCCEEDED'");
    attacks.add("UPDATE executions SET state = 'SUCCEEDED' WHERE state = 'FAILED_SAFE'");
    attacks.add("UPDATE executions SET state = 'SUCCEEDED' WHERE state = 'REFUSED'");
    attacks.add("UPDATE executions SET state = 'CREATED', completed_at = NULL WHERE state = 'REFUSED'");
    attacks.add("UPDATE executions SET idempotency_key = 'other-key'");
    attacks.add("UPDATE executions SET request_digest = 'sha256:" + "0".repeat(64) + "'");
    attacks.add("UPDATE executions SET holds_identity = 1 - holds_identity");
    attacks.add("UPDATE executions SET updated_at = updated_at - 1000000");
    attacks.add("UPDATE executions SET organization_id = 'other-org'");
    attacks.add("INSERT INTO execution_transitions (from_state, to_state) VALUES ('SUCCEEDED', 'DISPATCH_STARTED')");
    attacks.add("INSERT INTO executions SELECT organization_id, execution_id || '-copy', connection_id,"
        + " connector_revision, operation_id, authorization_id, idempotency_key || '-copy', authorization_digest,"
        + " request_digest, holds_identity, 'SUCCEEDED', created_at, updated_at, updated_at FROM executions");
    attacks.add("INSERT INTO authorization_nonces SELECT * FROM authorization_nonces");
    attacks.add("INSERT INTO receipts (organization_id, execution_id, connection_id, final_state, error_code,"
        + " error_message, recorded_at) SELECT organization_id, execution_id, connection_id, 'SUCCEEDED', NULL, NULL,"
        + " updated_at + 7 FROM executions WHERE state = 'FAILED_SAFE'");
    attacks.add("INSERT INTO receipts (organization_id, execution_id, connection_id, final_state, error_code,"
        + " error_message, recorded_at) VALUES ('org-r', 'no-such-execution', 'conn-r', 'FAILED_SAFE', 'FAILED_SAFE',"
        + " 'm', 1)");
    return attacks;
  }

  @Test
  void sqliteRefusesEveryRewriteOfTheRecord() throws Exception {
    Path file = temp.resolve("attacked/zeocore.db");
    try (JdbcConnectionStore store = World.seed(JdbcConnectionStore.openSqlite(file))) {
      populate(store);
    }
    List<String> attacks = commonAttacks();
    for (String table : APPEND_ONLY) {
      attacks.add("INSERT OR REPLACE INTO " + table + " SELECT * FROM " + table);
      attacks.add("REPLACE INTO " + table + " SELECT * FROM " + table);
    }
    attacks.add("INSERT OR REPLACE INTO executions SELECT * FROM executions");
    // an outcome is always a compare-and-set from a committed dispatch, never an insert (here: a succeeded execution
    // copied under another id, its history and dispatch clock and all)
    attacks.add(succeededCopiedByInsert(", history, dispatch_started_db_at"));
    // the history in the row (schema version 7): only the store's exact append passes
    attacks.add("UPDATE executions SET history = json_remove(history, '$[#-1]')");
    attacks.add("UPDATE executions SET history = NULL");
    attacks.add("UPDATE executions SET state = 'SUCCEEDED', history = json_insert(history, '$[#]',"
        + " json_array('SUCCEEDED', updated_at, completed_at)) WHERE state = 'FAILED_SAFE'");
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      attack("SQLite", raw, attacks);
    }
  }

  @Test
  void postgresRefusesEveryRewriteOfTheRecordEvenForTheOwner() throws Exception {
    Pg.require(SECTION + " on PostgreSQL");
    String schema = Pg.newSchema();
    try {
      try (JdbcConnectionStore store = World.seed(Pg.store(schema))) {
        populate(store);
      }
      List<String> attacks = commonAttacks();
      for (String table : APPEND_ONLY) {
        attacks.add("TRUNCATE " + table);
        attacks.add("TRUNCATE " + table + " CASCADE");
      }
      attacks.add("TRUNCATE executions CASCADE");
      // an insert may carry its snapshot chain (schema version 8), never past the dispatch: a succeeded execution
      // copied under another id, its history and all
      attacks.add(succeededCopiedByInsert(", history"));
      // the history in the row (schema version 6): the schema's trigger writes it, whatever a statement sets
      attacks.add("UPDATE executions SET history = history - 1");
      attacks.add("UPDATE executions SET history = '[]'");
      attacks.add("UPDATE executions SET state = 'SUCCEEDED', history = '[]' WHERE state = 'FAILED_SAFE'");
      attacks.add("INSERT INTO authorization_nonces SELECT * FROM authorization_nonces ON CONFLICT"
          + " (organization_id, nonce) DO UPDATE SET recorded_at = excluded.recorded_at + 1");
      try (Connection raw = Pg.dataSource().getConnection()) {
        RawSql.exec(raw, "SET search_path = " + schema);
        attack("PostgreSQL", raw, attacks);
      }
    } finally {
      Pg.drop(schema);
    }
  }

  /**
   * Every succeeded execution inserted again under another id and idempotency key, as it is: its state, its history
   * and {@code extraColumns} (with their leading comma) copied.
   */
  static String succeededCopiedByInsert(String extraColumns) {
    return "INSERT INTO executions (organization_id, execution_id, connection_id, connector_revision, operation_id,"
        + " authorization_id, idempotency_key, authorization_digest, request_digest, holds_identity, state,"
        + " created_at, updated_at, completed_at" + extraColumns + ") SELECT organization_id,"
        + " execution_id || '-forged', connection_id, connector_revision, operation_id, authorization_id,"
        + " idempotency_key || '-forged', authorization_digest, request_digest, holds_identity, state, created_at,"
        + " updated_at, completed_at" + extraColumns + " FROM executions WHERE state = 'SUCCEEDED'";
  }

  /** A succeeded, a failed-safe, an ambiguity resolved by reconciliation and a refused effect. */
  static void populate(JdbcConnectionStore store) {
    World.Authority authority = new World.Authority();
    EffectOrchestrator orchestrator = authority.orchestrator(store);
    assertThat(World.execute(orchestrator, authority.sign("raw-0", "k-0", World.body(0)), 0,
        request -> EffectDispatchResult.confirmed("c".repeat(64)), request -> null).state())
        .isEqualTo(EffectState.SUCCEEDED);
    assertThat(World.execute(orchestrator, authority.sign("raw-1", "k-1", World.body(1)), 1,
        request -> EffectDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "declined")),
        request -> null).state()).isEqualTo(EffectState.FAILED_SAFE);
    assertThat(World.execute(orchestrator, authority.sign("raw-2", "k-2", World.body(2)), 2, request -> {
      throw new IllegalStateException("reset");
    }, request -> ReconciliationResult.confirmed("e".repeat(64), "c".repeat(64))).state())
        .isEqualTo(EffectState.SUCCEEDED);
    assertThat(World.execute(orchestrator, authority.sign("raw-3", "k-3", World.body(3)).withSignature("AAAA"), 3,
        request -> EffectDispatchResult.confirmed("c".repeat(64)), request -> null).state())
        .isEqualTo(EffectState.REFUSED);
  }

  private static void attack(String dialect, Connection raw, List<String> attacks) throws SQLException {
    raw.setAutoCommit(true);
    List<String> accepted = new ArrayList<>();
    for (String sql : attacks) {
      String before = fingerprint(raw);
      try (Statement statement = raw.createStatement()) {
        statement.execute(sql);
      } catch (SQLException refused) {
        // refused: the guarantee held
      }
      if (!fingerprint(raw).equals(before)) {
        accepted.add(sql);
      }
    }
    Figures.record(SECTION, dialect + ", raw statements against a populated store", attacks.size(), accepted.size(),
        "the statement changed any row of any ZeoCore table");
    assertThat(accepted).isEmpty();
  }

  static String fingerprint(Connection raw) throws SQLException {
    StringBuilder all = new StringBuilder();
    for (String table : TABLES) {
      try (Statement statement = raw.createStatement();
          ResultSet rows = statement.executeQuery("SELECT * FROM " + table)) {
        ResultSetMetaData meta = rows.getMetaData();
        List<String> lines = new ArrayList<>();
        while (rows.next()) {
          StringBuilder line = new StringBuilder();
          for (int c = 1; c <= meta.getColumnCount(); c++) {
            line.append(rows.getString(c)).append('|');
          }
          lines.add(line.toString());
        }
        lines.sort(null);
        all.append(table).append(lines).append('\n');
      } catch (SQLException gone) {
        all.append(table).append(" unreadable: ").append(gone.getMessage()).append('\n');
      }
    }
    return all.toString();
  }
}
