package io.zeocore.connections.store;

import static io.zeocore.connections.store.RawSchemaSql.FAILED_SAFE_O1_RECEIPT;
import static io.zeocore.connections.store.RawSchemaSql.advance;
import static io.zeocore.connections.store.RawSchemaSql.advanceToPrepared;
import static io.zeocore.connections.store.RawSchemaSql.assertInsertedEffectRules;
import static io.zeocore.connections.store.RawSchemaSql.assertRefused;
import static io.zeocore.connections.store.RawSchemaSql.assertUpdatedEffectRules;
import static io.zeocore.connections.store.RawSchemaSql.confirmedReadReceipt;
import static io.zeocore.connections.store.RawSchemaSql.exec;
import static io.zeocore.connections.store.RawSchemaSql.executionInsert;
import static io.zeocore.connections.store.RawSchemaSql.insertAppendOnlyRows;
import static io.zeocore.connections.store.RawSchemaSql.insertEffect;
import static io.zeocore.connections.store.RawSchemaSql.interleavedToAmbiguity;
import static io.zeocore.connections.store.RawSchemaSql.observationInsert;
import static io.zeocore.connections.store.RawSchemaSql.receipt;
import static io.zeocore.connections.store.RawSchemaSql.strings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OrganizationId;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The PostgreSQL schema's own guarantees, exercised through plain JDBC connections that bypass the store: the
 * migration's history table and schema, and every trigger's guarantee, including that {@code TRUNCATE} and
 * {@code INSERT ... ON CONFLICT DO UPDATE} cannot get around the append-only tables.
 */
class PostgresSchemaTest {

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  @Test
  void keepsItsHistoryInItsOwnTableInTheChosenSchemaAndMigratesOnlyOnce() throws Exception {
    DataSource dataSource = PostgresTestSchema.newDataSource();
    try (Connection raw = schema.connect()) {
      List<String> tables = strings(raw, "SELECT tablename FROM pg_tables WHERE schemaname = '" + schema.name()
          + "' ORDER BY tablename");
      assertThat(tables).containsExactlyInAnyOrder("zeocore_schema_history", "connections", "connector_revisions",
          "executions", "execution_transitions", "receipts", "evidence_references", "authorization_nonces",
          "observations", "observation_receipts", "dispatch_clock", "recovery_leases", "target_health");
      assertThat(strings(raw, "SELECT version FROM " + schema.name() + ".zeocore_schema_history"
          + " WHERE type = 'SQL' ORDER BY installed_rank"))
          .containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
      assertThat(strings(raw, "SELECT table_schema FROM information_schema.tables"
          + " WHERE table_name IN ('flyway_schema_history', 'executions') AND table_schema = '" + schema.name()
          + "'")).containsExactly(schema.name());
    }
    ZeoCoreSchema.Migration again = ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, schema.name());
    assertThat(again.migrationsExecuted()).isZero();
    assertThat(again.schemaVersion()).isEqualTo("10");
    assertThat(ZeoCoreSchema.appliedVersion(dataSource, Dialect.POSTGRESQL, schema.name())).contains("10");
    assertThat(ZeoCoreSchema.appliedVersion(dataSource, Dialect.POSTGRESQL, schema.name() + "_never")).isEmpty();
  }

  @Test
  void migratesAFreshSchemaAndRefusesOneMigratedByANewerZeoCore() throws Exception {
    try (PostgresTestSchema fresh = PostgresTestSchema.unmigrated()) {
      DataSource dataSource = PostgresTestSchema.newDataSource();
      assertThat(ZeoCoreSchema.appliedVersion(dataSource, Dialect.POSTGRESQL, fresh.name())).isEmpty();
      ZeoCoreSchema.Migration migration = ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, fresh.name());
      assertThat(migration).isEqualTo(new ZeoCoreSchema.Migration(Dialect.POSTGRESQL, "10", 10));
      try (Connection raw = fresh.connect()) {
        exec(raw, "INSERT INTO " + fresh.name() + ".zeocore_schema_history (installed_rank, version, description,"
            + " type, script, checksum, installed_by, execution_time, success) VALUES (99, '99', 'future', 'SQL',"
            + " 'V99__future.sql', 0, 'test', 0, TRUE)");
      }
      assertThatThrownBy(() -> ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, fresh.name()))
          .isInstanceOf(ConnectionStoreException.class).hasMessage("database schema is newer than this ZeoCore build");
    }
  }

  @Test
  void refusesANewerSchemaBeforeAnythingTouchesTheDatabase() throws Exception {
    try (PostgresTestSchema newer = PostgresTestSchema.unmigrated()) {
      DataSource dataSource = PostgresTestSchema.newDataSource();
      try (Connection raw = newer.connect()) {
        exec(raw, "CREATE SCHEMA " + newer.name());
        exec(raw, "CREATE TABLE " + newer.name() + ".zeocore_schema_history (installed_rank INT PRIMARY KEY,"
            + " version VARCHAR(50), description VARCHAR(200) NOT NULL, type VARCHAR(20) NOT NULL,"
            + " script VARCHAR(1000) NOT NULL, checksum INT, installed_by VARCHAR(100) NOT NULL,"
            + " installed_on TIMESTAMP NOT NULL DEFAULT now(), execution_time INT NOT NULL, success BOOLEAN NOT NULL)");
        exec(raw, "INSERT INTO " + newer.name() + ".zeocore_schema_history (installed_rank, version, description, type,"
            + " script, installed_by, execution_time, success) VALUES (1, '99', 'from the future', 'SQL',"
            + " 'V99__future.sql', 'test', 0, TRUE)");
      }

      assertThatThrownBy(() -> ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, newer.name()))
          .isInstanceOf(ConnectionStoreException.class)
          .hasMessage("database schema is newer than this ZeoCore build");
      assertThatThrownBy(() -> JdbcConnectionStore.builder().dataSource(dataSource, Dialect.POSTGRESQL)
          .schema(newer.name()).build())
          .isInstanceOf(ConnectionStoreException.class)
          .hasMessage("database schema is newer than this ZeoCore build");

      try (Connection raw = newer.connect()) {
        // no table, function or history row was added: no migration ran, and Flyway never started
        assertThat(strings(raw, "SELECT tablename FROM pg_tables WHERE schemaname = '" + newer.name() + "'"))
            .containsExactly("zeocore_schema_history");
        assertThat(strings(raw, "SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
            + " WHERE n.nspname = '" + newer.name() + "'")).isEmpty();
        assertThat(strings(raw, "SELECT version FROM " + newer.name() + ".zeocore_schema_history"))
            .containsExactly("99");
      }
    }
  }

  @Test
  void appendOnlyTablesRefuseUpdateDeleteTruncateAndOnConflictDoUpdate() throws Exception {
    try (Connection raw = raw()) {
      insertAppendOnlyRows(raw, Dialect.POSTGRESQL);
      exec(raw, observationInsert("o1", "k1", "CLAIMED", null));
      exec(raw, "UPDATE observations SET state = 'CONFIRMED', completed_at = 11");
      exec(raw, confirmedReadReceipt("o1", "sha256:x", "{}"));

      record Case(String table, String words, String upsert) {}
      List<Case> cases = List.of(
          new Case("receipts", "receipts are append-only",
              "INSERT INTO receipts (organization_id, execution_id, connection_id, final_state, error_code,"
                  + " error_message, recorded_at) VALUES ('org', 'e1', 'c1', 'REFUSED', 'REQUEST_REFUSED', 'other',"
                  + " 11) ON CONFLICT (organization_id, execution_id, recorded_at)"
                  + " DO UPDATE SET error_message = excluded.error_message"),
          new Case("evidence_references", "evidence is append-only",
              "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref) VALUES"
                  + " ('org', 'e1', 'ref1') ON CONFLICT (organization_id, evidence_ref)"
                  + " DO UPDATE SET evidence_ref = 'ref2'"),
          new Case("evidence_references", "evidence is append-only",
              "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref, observed_at,"
                  + " confirmation_digest) VALUES ('org', 'e1', 'ref1', 99, '" + "b".repeat(64) + "')"
                  + " ON CONFLICT (organization_id, evidence_ref)"
                  + " DO UPDATE SET confirmation_digest = excluded.confirmation_digest"),
          new Case("authorization_nonces", "authorization nonces are append-only",
              "INSERT INTO authorization_nonces VALUES ('org', 'n1', 99) ON CONFLICT (organization_id, nonce)"
                  + " DO UPDATE SET recorded_at = excluded.recorded_at"),
          new Case("connector_revisions", "connector revision is immutable",
              "INSERT INTO connector_revisions VALUES ('org', 'r1', '{\"changed\":true}')"
                  + " ON CONFLICT (organization_id, revision_id) DO UPDATE SET document = excluded.document"),
          new Case("observation_receipts", "observation receipts are append-only",
              confirmedReadReceipt("o1", "sha256:y", "[]") + " ON CONFLICT (organization_id, observation_id)"
                  + " DO UPDATE SET inline_result = excluded.inline_result"),
          new Case("execution_transitions", "the transition table is fixed",
              "INSERT INTO execution_transitions VALUES ('CREATED', 'PREPARED')"
                  + " ON CONFLICT (from_state, to_state) DO UPDATE SET to_state = 'SUCCEEDED'"));
      for (Case c : cases) {
        String before = snapshot(raw, c.table());
        String column = firstColumn(raw, c.table());
        assertRefused(raw, "UPDATE " + c.table() + " SET " + column + " = " + column, c.words());
        assertRefused(raw, "DELETE FROM " + c.table(), c.words());
        assertRefused(raw, "TRUNCATE " + c.table() + " CASCADE", c.words());
        assertRefused(raw, c.upsert(), c.words());
        if (!c.table().equals("execution_transitions")) {
          try (Statement statement = raw.createStatement()) {
            int changed = statement.executeUpdate(c.upsert().substring(0, c.upsert().indexOf(" DO UPDATE"))
                + " DO NOTHING");
            assertThat(changed).as(c.table() + " ON CONFLICT DO NOTHING").isZero();
          }
        }
        assertThat(snapshot(raw, c.table())).as(c.table()).isEqualTo(before);
      }
      assertRefused(raw, "DELETE FROM executions", "executions are never deleted");
      assertRefused(raw, "TRUNCATE executions CASCADE", "executions are never deleted");
      assertRefused(raw, "DELETE FROM observations", "observations are never deleted");
      assertRefused(raw, "TRUNCATE observations CASCADE", "observations are never deleted");
      assertThat(strings(raw, "SELECT error_message FROM receipts")).containsExactly("refused");
      assertThat(strings(raw, "SELECT document FROM connector_revisions")).containsExactly("{}");
    }
  }

  @Test
  void historyIsWrittenOrCheckedByTheSchemaWhateverTheStatementSetsOrTheSearchPath() throws Exception {
    String decoy = schema.name() + "_decoy";
    try (Connection raw = schema.connect()) {
      // a connection whose search_path finds look-alike tables first must still have ZeoCore's rules decide
      exec(raw, "CREATE SCHEMA " + decoy);
      exec(raw, "CREATE TABLE " + decoy + ".execution_transitions (from_state TEXT, to_state TEXT)");
      exec(raw, "INSERT INTO " + decoy + ".execution_transitions VALUES ('CREATED', 'SUCCEEDED')");
      exec(raw, "SET search_path = " + decoy + ", public");
      String effects = schema.name() + ".executions";
      String insert = executionInsert(raw, "e1", "k1", 1).replace("INTO executions", "INTO " + effects);
      // an insert's own history is a chain the schema checks against its own transition table (schema version 8)
      assertRefused(raw, insert.replace("completed_at)", "completed_at, history)").replace("'CREATED', 10, 10, NULL)",
          "'SUCCEEDED', 10, 11, 11, '[[\"CREATED\", 10, null], [\"SUCCEEDED\", 11, 11]]')"),
          "transition is not allowed");
      assertRefused(raw, insert.replace("completed_at)", "completed_at, history)")
          .replace("NULL)", "NULL, '[[\"SUCCEEDED\", 1, 1]]')"), "first persisted state must be CREATED");
      exec(raw, insert);
      exec(raw, "UPDATE " + effects + " SET state = 'AUTHORIZATION_VERIFIED', updated_at = 11");
      exec(raw, "UPDATE " + effects + " SET state = 'PREPARED', updated_at = 12, history = '[]'");
      assertRefused(raw, "UPDATE " + effects + " SET state = 'SUCCEEDED', updated_at = 13, completed_at = 13",
          "transition is not allowed");
      assertRefused(raw, "UPDATE " + effects + " SET history = history - 1", "transition is not allowed");
      assertRefused(raw, "UPDATE " + effects + " SET state = 'DISPATCH_STARTED', updated_at = 13,"
          + " history = NULL, organization_id = 'other'", "execution identity is immutable");
      assertThat(strings(raw, "SELECT history::text FROM " + effects + " WHERE execution_id = 'e1'"))
          .as("the snapshots the row had, whatever each statement set").containsExactly(
              "[[\"CREATED\", 10, null], [\"AUTHORIZATION_VERIFIED\", 11, null], [\"PREPARED\", 12, null]]");
    } finally {
      try (Connection raw = schema.connect()) {
        exec(raw, "DROP SCHEMA IF EXISTS " + decoy + " CASCADE");
      }
    }
  }

  @Test
  void version6CopiesEveryHistoryRowOfAVersion5DatabaseIntoItsEffectInOrder() throws Exception {
    try (PostgresTestSchema old = PostgresTestSchema.unmigrated()) {
      DataSource dataSource = migratedUpTo(old, "5");
      try (Connection raw = old.connect()) {
        exec(raw, "SET search_path = " + old.name());
        interleavedToAmbiguity(raw);
        advance(raw, "e1", "AMBIGUOUS", "FAILED_SAFE", 16, 16L);
      }
      assertThat(ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, old.name()).migrationsExecuted()).isEqualTo(5);
      try (JdbcConnectionStore store = JdbcConnectionStore.builder().dataSource(dataSource, Dialect.POSTGRESQL)
          .schema(old.name()).build()) {
        OrganizationId org = new OrganizationId("org");
        assertThat(store.getEffectHistory(org, new EffectId("e1")))
            .extracting(e -> e.state() + "@" + Micros.of(e.updatedAt())
                + (e.completedAt() == null ? "" : "/" + Micros.of(e.completedAt())))
            .containsExactly("CREATED@10", "AUTHORIZATION_VERIFIED@11", "PREPARED@12", "DISPATCH_STARTED@13",
                "AMBIGUOUS@14", "FAILED_SAFE@16/16");
        assertThat(store.getEffectHistory(org, new EffectId("e2"))).extracting(EffectRecord::state)
            .containsExactly(EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
                EffectState.DISPATCH_STARTED, EffectState.AMBIGUOUS);
      }
      try (Connection raw = old.connect()) {
        assertThat(strings(raw, "SELECT tablename FROM pg_tables WHERE schemaname = '" + old.name()
            + "' AND tablename = 'execution_history'")).as("copied into the rows, then dropped").isEmpty();
        exec(raw, "UPDATE " + old.name() + ".executions SET history = NULL, state = 'SUCCEEDED', updated_at = 20,"
            + " completed_at = 20 WHERE execution_id = 'e2'");
        assertThat(strings(raw, "SELECT jsonb_array_length(history) || ' ' || (history -> -1)::text FROM "
            + old.name() + ".executions WHERE execution_id = 'e2'")).as("a copied history goes on growing")
            .containsExactly("6 [\"SUCCEEDED\", 20, 20]");
      }
    }
  }

  @Test
  void version7PutsEveryConfirmationOfAVersion6DatabaseIntoItsReferencesRow() throws Exception {
    String digest = "b".repeat(64);
    String confirmed = "zeo-evidence:v1:aaaaaaaa-0000-4000-8000-000000000000";
    String bare = "zeo-evidence:v1:bbbbbbbb-0000-4000-8000-000000000000";
    try (PostgresTestSchema old = PostgresTestSchema.unmigrated()) {
      DataSource dataSource = migratedUpTo(old, "6");
      try (Connection raw = old.connect()) {
        exec(raw, "SET search_path = " + old.name());
        insertEffect(raw, "e1", "k1", 1);
        exec(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref) VALUES"
            + " ('org', 'e1', '" + bare + "'), ('org', 'e1', '" + confirmed + "')");
        exec(raw, "INSERT INTO confirmation_evidence VALUES ('org', 'e1', '" + confirmed + "', 20, '" + digest + "')");
        advanceToPrepared(raw, "e1");
        advance(raw, "e1", "PREPARED", "DISPATCH_STARTED", 13);
        advance(raw, "e1", "DISPATCH_STARTED", "SUCCEEDED", 21, 21L);
        exec(raw, "INSERT INTO receipts (organization_id, execution_id, connection_id, final_state, recorded_at,"
            + " dispatch_started_at, confirmation_evidence_ref) VALUES ('org', 'e1', 'c1', 'SUCCEEDED', 21, 13, '"
            + confirmed + "')");
      }
      assertThat(ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, old.name()).migrationsExecuted()).isEqualTo(4);
      try (JdbcConnectionStore store = JdbcConnectionStore.builder().dataSource(dataSource, Dialect.POSTGRESQL)
          .schema(old.name()).build()) {
        OrganizationId org = new OrganizationId("org");
        EffectId effect = new EffectId("e1");
        assertThat(store.getEvidenceReferencesForEffect(org, effect))
            .containsExactly(new ConfirmationEvidenceRef(bare), new ConfirmationEvidenceRef(confirmed));
        assertThat(store.getConfirmationEvidence(org, new ConfirmationEvidenceRef(confirmed))).contains(
            new ConfirmationEvidence(new ConfirmationEvidenceRef(confirmed), org, effect,
                Instant.EPOCH.plus(20, ChronoUnit.MICROS), digest));
        assertThat(store.getConfirmationEvidence(org, new ConfirmationEvidenceRef(bare))).as("a bare reference")
            .isEmpty();
        assertThat(store.getReceiptsForEffect(org, effect)).singleElement()
            .extracting(EffectReceipt::confirmationEvidenceRef).isEqualTo(new ConfirmationEvidenceRef(confirmed));
      }
      try (Connection raw = old.connect()) {
        assertThat(strings(raw, "SELECT tablename FROM pg_tables WHERE schemaname = '" + old.name()
            + "' AND tablename = 'confirmation_evidence'")).as("copied into the references' rows, then dropped")
            .isEmpty();
        assertRefused(raw, "UPDATE " + old.name() + ".evidence_references SET observed_at = NULL,"
            + " confirmation_digest = NULL", "evidence is append-only");
      }
    }
  }

  @Test
  void version10KeepsAVersion9StoreWithItsDataAndItsClaimHoldsTheCheckedConnection() throws Exception {
    String oldClaim = "SELECT zeocore_claim('org', 'n-old', 10, 'e-old', 'c1', 'r1', 'op', 'a-old', 'k-old', 'ad',"
        + " 'rd', 10, ARRAY['CREATED', 'AUTHORIZATION_VERIFIED', 'PREPARED', 'DISPATCH_STARTED'],"
        + " ARRAY[10, 11, 12, 13]::bigint[], ARRAY[NULL, NULL, NULL, NULL]::bigint[])";
    try (PostgresTestSchema old = PostgresTestSchema.unmigrated()) {
      DataSource dataSource = migratedUpTo(old, "9");
      try (Connection raw = old.connect()) {
        exec(raw, "SET search_path = " + old.name());
        interleavedToAmbiguity(raw);
        advance(raw, "e1", "AMBIGUOUS", "FAILED_SAFE", 16, 16L);
        exec(raw, oldClaim);
      }
      assertThat(ZeoCoreSchema.migrate(dataSource, Dialect.POSTGRESQL, old.name()))
          .isEqualTo(new ZeoCoreSchema.Migration(Dialect.POSTGRESQL, "10", 1));
      try (JdbcConnectionStore store = JdbcConnectionStore.builder().dataSource(dataSource, Dialect.POSTGRESQL)
          .schema(old.name()).build()) {
        OrganizationId org = new OrganizationId("org");
        assertThat(store.getEffectHistory(org, new EffectId("e1"))).extracting(EffectRecord::state)
            .containsExactly(EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
                EffectState.DISPATCH_STARTED, EffectState.AMBIGUOUS, EffectState.FAILED_SAFE);
        assertThat(store.getEffect(org, new EffectId("e-old"))).get().extracting(EffectRecord::state)
            .isEqualTo(EffectState.DISPATCH_STARTED);

        io.zeocore.connections.contract.Connection saved = ContractFixtures.connection();
        store.saveConnection(ContractFixtures.ORG, saved);
        io.zeocore.connections.contract.Connection checked =
            store.getConnection(ContractFixtures.ORG, ContractFixtures.CONNECTION).orElseThrow();
        List<EffectRecord> chain = AbstractJdbcConnectionStoreTest.toDispatchStarted(new EffectId("e-new"),
            ContractFixtures.KEY);
        assertThat(store.claimEffect(ContractFixtures.ORG, "n-new", chain, checked).claimed()).isTrue();
        assertThat(store.getEffectHistory(ContractFixtures.ORG, new EffectId("e-new")))
            .containsExactlyElementsOf(chain);
      }
      try (Connection raw = old.connect()) {
        exec(raw, "SET search_path = " + old.name());
        // the version-8 claim stays for builds that call it
        exec(raw, oldClaim.replace("-old", "-old-2"));
        assertThat(strings(raw, "SELECT state FROM executions WHERE execution_id = 'e-old-2'"))
            .containsExactly("DISPATCH_STARTED");
        // the claim holding a document that is not the stored one writes nothing
        String holding = "SELECT zeocore_claim('org-1', 'n-x', 10, 'e-x', 'conn-1', 'stripe-r1', 'op', 'a-x',"
            + " 'k-x', 'ad', 'rd', 10, ARRAY['CREATED'], ARRAY[10]::bigint[], ARRAY[NULL]::bigint[], '{}')";
        assertThatThrownBy(() -> exec(raw, holding)).isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("ZC003"))
            .hasMessageContaining("the connection changed since it was checked");
        assertThat(strings(raw, "SELECT count(*) FROM authorization_nonces WHERE nonce = 'n-x'"))
            .containsExactly("0");
        assertThat(strings(raw, "SELECT count(*) FROM executions WHERE execution_id = 'e-x'")).containsExactly("0");
      }
    }
  }

  /** A data source on {@code schema}, migrated by Flyway up to {@code version} of the shipped scripts only. */
  private DataSource migratedUpTo(PostgresTestSchema schema, String version) {
    DataSource dataSource = PostgresTestSchema.newDataSource();
    org.flywaydb.core.Flyway.configure(getClass().getClassLoader()).dataSource(dataSource)
        .table(ZeoCoreSchema.HISTORY_TABLE).locations(Dialect.POSTGRESQL.migrationLocation()).schemas(schema.name())
        .defaultSchema(schema.name()).createSchemas(true).target(version).load().migrate();
    return dataSource;
  }

  @Test
  void anEffectIsInsertedWithItsWholeChainCheckedStepByStepAndAtMostUpToTheDispatch() throws Exception {
    String[] toPrepared = {"[\"CREATED\",10,null]", "[\"AUTHORIZATION_VERIFIED\",11,null]",
        "[\"PREPARED\",12,null]"};
    String[] toDispatch = {"[\"CREATED\",10,null]", "[\"AUTHORIZATION_VERIFIED\",11,null]",
        "[\"PREPARED\",12,null]", "[\"DISPATCH_STARTED\",13,null]"};
    try (Connection raw = raw()) {
      exec(raw, chainInsert("c1", "DISPATCH_STARTED", 13, null, toDispatch));
      assertThat(strings(raw, "SELECT state || ' ' || jsonb_array_length(history) FROM executions"))
          .containsExactly("DISPATCH_STARTED 4");
      assertThat(strings(raw, "SELECT count(*) FROM dispatch_clock WHERE execution_id = 'c1'"))
          .as("the clock written by the insert that starts the dispatch").containsExactly("1");
      exec(raw, chainInsert("c2", "REFUSED", 12, 12L, "[\"CREATED\",10,null]", "[\"REFUSED\",12,12]"));
      exec(raw, chainInsert("c3", "PREPARED", 12, null, toPrepared));

      assertRefused(raw, chainInsert("x1", "PREPARED", 12, null, "[\"CREATED\",10,null]", "[\"PREPARED\",12,null]"),
          "transition is not allowed");
      assertRefused(raw, chainInsert("x2", "PREPARED", 12, null, "[\"CREATED\",10,null]",
          "[\"AUTHORIZATION_VERIFIED\",13,null]", "[\"PREPARED\",12,null]"), "updated_at must be monotonic");
      assertRefused(raw, chainInsert("x3", "AMBIGUOUS", 14, null, toDispatch[0], toDispatch[1], toDispatch[2],
          toDispatch[3], "[\"AMBIGUOUS\",14,null]"), "inserted at most up to DISPATCH_STARTED");
      // malformed chains to PREPARED at 12: a completed middle snapshot, a short one, a time as text, a last snapshot
      // that is not the row's, a first one before created_at, none at all
      String[][] malformed = {
          {"[\"CREATED\",10,5]", toPrepared[1], toPrepared[2]},
          {toPrepared[0], "[\"AUTHORIZATION_VERIFIED\",11]", toPrepared[2]},
          {toPrepared[0], "[\"AUTHORIZATION_VERIFIED\",\"11\",null]", toPrepared[2]},
          {toPrepared[0], toPrepared[1], "[\"PREPARED\",99,null]"},
          {"[\"CREATED\",9,null]", toPrepared[1], toPrepared[2]},
          {}};
      for (int i = 0; i < malformed.length; i++) {
        assertRefused(raw, chainInsert("m" + i, "PREPARED", 12, null, malformed[i]),
            "history must record the execution's current snapshot");
      }
      assertRefused(raw, chainInsert("x9", "PREPARED", 12, null, "[\"PREPARED\",12,null]"),
          "first persisted state must be CREATED");
      assertRefused(raw, chainInsert("c1", "PREPARED", 12, null, toPrepared), "executions_pkey");
      assertThat(strings(raw, "SELECT execution_id FROM executions ORDER BY execution_id"))
          .containsExactly("c1", "c2", "c3");
    }
  }

  /** A raw insert of execution {@code id} (created at 10) at {@code state}, with the given history. */
  private static String chainInsert(String id, String state, long updatedAt, Long completedAt, String... snapshots) {
    return "INSERT INTO executions (organization_id, execution_id, connection_id, connector_revision, operation_id,"
        + " authorization_id, idempotency_key, authorization_digest, request_digest, holds_identity, state, created_at,"
        + " updated_at, completed_at, history) VALUES ('org', '" + id + "', 'c1', 'r1', 'op', 'a1', 'k-" + id + "',"
        + " 'ad', 'rd', 1, '" + state + "', 10, " + updatedAt + ", " + completedAt + ", '["
        + String.join(",", snapshots) + "]')";
  }

  @Test
  void stateChangesOutsideTheTransitionTableAreRefused() throws Exception {
    try (Connection raw = raw()) {
      assertUpdatedEffectRules(raw);
      assertRefused(raw, executionInsert(raw, "e1", "k1", 1) + " ON CONFLICT (organization_id, execution_id)"
          + " DO UPDATE SET state = 'CREATED', updated_at = 30", "transition is not allowed");
      assertRefused(raw, "INSERT INTO execution_transitions VALUES ('SUCCEEDED', 'CREATED')",
          "transition table is fixed");
      assertRefused(raw, "DELETE FROM execution_transitions", "transition table is fixed");
      assertThat(strings(raw, "SELECT count(*) FROM execution_transitions")).containsExactly("14");
      assertThat(strings(raw, "SELECT s.value ->> 0 FROM executions,"
          + " jsonb_array_elements(history) WITH ORDINALITY AS s(value, position) ORDER BY s.position"))
          .containsExactly("CREATED", "AUTHORIZATION_VERIFIED");
    }
  }

  @Test
  void theFirstStateIsCreatedAndTheIdempotencyIdentityIsUniqueExceptForRefusals() throws Exception {
    try (Connection raw = raw()) {
      assertInsertedEffectRules(raw, "executions_idempotency_identity", "executions_pkey");
      assertRefused(raw, "UPDATE executions SET holds_identity = 1, state = 'REFUSED', updated_at = 11,"
          + " completed_at = 11 WHERE execution_id = 'e3'", "execution identity is immutable");
      assertThat(strings(raw, "SELECT execution_id FROM executions ORDER BY execution_id"))
          .containsExactly("e1", "e3", "e4");
    }
  }

  @Test
  void receiptsMustMatchTheEffectAndPointAtPersistedAmbiguity() throws Exception {
    try (Connection raw = raw()) {
      insertEffect(raw, "e1", "k1", 1);
      advanceToPrepared(raw, "e1");
      advance(raw, "e1", "PREPARED", "DISPATCH_STARTED", 13, null);
      assertRefused(raw, receipt("e1", "c1", "AMBIGUOUS", 14, null), "receipt state does not match execution");
      advance(raw, "e1", "DISPATCH_STARTED", "AMBIGUOUS", 14, null);
      assertRefused(raw, receipt("e1", "other", "AMBIGUOUS", 14, null), "receipt connection mismatch");
      assertRefused(raw, receipt("e9", "c1", "AMBIGUOUS", 14, null), "receipt execution does not exist");
      exec(raw, receipt("e1", "c1", "AMBIGUOUS", 14, null));
      assertRefused(raw, receipt("e1", "c1", "AMBIGUOUS", 15, null), "receipts_one_ambiguity");
      assertRefused(raw, receipt("e1", "c1", "AMBIGUOUS", 14, null).replace("NULL, NULL, NULL)",
          "NULL, NULL, NULL, 'attempt')").replace("resolves_ambiguous_recorded_at)",
          "resolves_ambiguous_recorded_at, reconciliation_attempt_evidence)"), "receipts_recorded_at_once");
      exec(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref) VALUES"
          + " ('org', 'e1', 'ref1')");
      assertRefused(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref) VALUES"
          + " ('org', 'e9', 'ref9')", "execution does not exist in organization");
      assertRefused(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref,"
          + " observed_at, confirmation_digest) VALUES ('org', 'e1', 'ref2', 10, 'not-a-digest')",
          "evidence_references_digest");
      assertRefused(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref,"
          + " observed_at) VALUES ('org', 'e1', 'ref2', 10)", "evidence_references_confirmation");
      assertRefused(raw, "UPDATE evidence_references SET observed_at = 10, confirmation_digest = '" + "a".repeat(64)
          + "' WHERE evidence_ref = 'ref1'", "evidence is append-only");
      advance(raw, "e1", "AMBIGUOUS", "FAILED_SAFE", 16, 16L);
      assertRefused(raw, receipt("e1", "c1", "FAILED_SAFE", 16, 13L),
          "resolving receipt does not reference persisted ambiguity");
      assertRefused(raw, receipt("e1", "c1", "FAILED_SAFE", 16, 14L)
          .replace("resolves_ambiguous_recorded_at)", "resolves_ambiguous_recorded_at, confirmation_evidence_ref)")
          .replace("'ev', 14)", "'ev', 14, 'ref9')"), "receipt evidence reference lacks provenance");
      exec(raw, receipt("e1", "c1", "FAILED_SAFE", 16, 14L));
      assertRefused(raw, receipt("e1", "c1", "FAILED_SAFE", 17, 14L), "receipts_one_outcome");
    }
  }

  @Test
  void observationsMoveOnceFromClaimedToTerminal() throws Exception {
    try (Connection raw = raw()) {
      assertRefused(raw, observationInsert("o0", "k0", "CONFIRMED", 11L), "new observation must start CLAIMED");
      exec(raw, observationInsert("o1", "k1", "CLAIMED", null));
      assertRefused(raw, observationInsert("o2", "k1", "CLAIMED", null), "observations_idempotency_identity");
      assertRefused(raw, "UPDATE observations SET state = 'CLAIMED' WHERE observation_id = 'o1'",
          "committed observation must be terminal");
      assertRefused(raw, "UPDATE observations SET state = 'CONFIRMED', completed_at = 11, request_digest = 'x'"
          + " WHERE observation_id = 'o1'", "observation identity is immutable");
      exec(raw, "UPDATE observations SET state = 'CONFIRMED', completed_at = 11 WHERE observation_id = 'o1'");
      assertRefused(raw, "UPDATE observations SET state = 'FAILED_SAFE' WHERE observation_id = 'o1'",
          "already terminal");
      assertRefused(raw, FAILED_SAFE_O1_RECEIPT, "does not match its record");
      assertRefused(raw, "INSERT INTO observation_receipts (organization_id, observation_id, connection_id,"
          + " final_state, request_digest, recorded_at) VALUES ('org', 'o9', 'c1', 'CONFIRMED', 'd2', 11)",
          "observation claim does not exist");
      exec(raw, confirmedReadReceipt("o1", "sha256:x", "{}"));
      assertRefused(raw, confirmedReadReceipt("o1", "sha256:y", "[]"), "observation_receipts_pkey");
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  /** A plain connection (auto-commit, no ZeoCore settings) whose search path is the test schema. */
  private static Connection raw() throws SQLException {
    Connection connection = schema.connect();
    exec(connection, "SET search_path = " + schema.name());
    return connection;
  }

  /** Every row of {@code table}, as text, in a stable order. */
  private static String snapshot(Connection raw, String table) throws SQLException {
    return String.join("\n", strings(raw, "SELECT t::text FROM " + table + " t ORDER BY t::text"));
  }

  private static String firstColumn(Connection raw, String table) throws SQLException {
    return strings(raw, "SELECT column_name FROM information_schema.columns WHERE table_schema = '" + schema.name()
        + "' AND table_name = '" + table + "' AND is_identity = 'NO' ORDER BY ordinal_position LIMIT 1").get(0);
  }
}
