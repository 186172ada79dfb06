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
import static io.zeocore.connections.store.RawSchemaSql.numberedReceipt;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema's own guarantees, exercised through plain JDBC connections that have none of ZeoCore's driver settings
 * (no {@code recursive_triggers}, no {@code foreign_keys}): the triggers must hold on any connection.
 */
class ZeoCoreSchemaTest {

  /** Evidence references in their canonical shape, and a confirmation digest, for the version-7 fixture. */
  private static final String REF_A = "zeo-evidence:v1:aaaaaaaa-0000-4000-8000-000000000000";
  private static final String REF_B = "zeo-evidence:v1:bbbbbbbb-0000-4000-8000-000000000000";
  private static final String REF_X = "zeo-evidence:v1:eeeeeeee-0000-4000-8000-000000000000";
  private static final String REF_Y = "zeo-evidence:v1:ffffffff-0000-4000-8000-000000000000";
  private static final String DIGEST_B = "b".repeat(64);

  @TempDir
  Path temp;

  private Path file;

  @BeforeEach
  void migrate() {
    file = temp.resolve("zeocore.db");
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      ZeoCoreSchema.Migration migration = ZeoCoreSchema.migrate(database.migrationDataSource(), Dialect.SQLITE);
      assertThat(migration.schemaVersion()).isEqualTo("10");
      assertThat(migration.migrationsExecuted()).isEqualTo(10);
    }
  }

  @Test
  void migratingAgainAppliesNothingAndKeepsTheVersion() throws Exception {
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      ZeoCoreSchema.Migration again = ZeoCoreSchema.migrate(database.migrationDataSource(), Dialect.SQLITE);
      assertThat(again.migrationsExecuted()).isZero();
      assertThat(again.schemaVersion()).isEqualTo("10");
      assertThat(ZeoCoreSchema.appliedVersion(database.migrationDataSource(), Dialect.SQLITE)).contains("10");
    }
  }

  @Test
  void aCurrentSchemaIsCheckedOnTheOpenConnectionWithoutAskingForFlywaysDataSource() throws Exception {
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      ZeoCoreSchema.Migration again = ZeoCoreSchema.migrate(database.database(), () -> {
        throw new AssertionError("Flyway was needed");
      }, SqliteDialect.INSTANCE.tables(null));
      assertThat(again.migrationsExecuted()).isZero();
      assertThat(again.schemaVersion()).isEqualTo(ZeoCoreSchema.latestVersion(Dialect.SQLITE));
    }
  }

  @Test
  void anOutdatedSchemaIsHandedToFlywayThroughTheGivenDataSource() throws Exception {
    Path fresh = file.resolveSibling("fresh.db");
    try (SqliteDatabase database = SqliteDatabase.open(fresh)) {
      java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
      ZeoCoreSchema.Migration migration = ZeoCoreSchema.migrate(database.database(), () -> {
        asked.incrementAndGet();
        return database.migrationDataSource();
      }, SqliteDialect.INSTANCE.tables(null));
      assertThat(asked).hasValue(1);
      assertThat(migration.migrationsExecuted()).isEqualTo(10);
    }
  }

  @Test
  void laterVersionsKeepEverySnapshotReceiptAndDispatchClockOfAVersion4DatabaseInItsOrder() throws Exception {
    Path old = databaseAtVersion("4");
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      exec(raw, "PRAGMA recursive_triggers = ON");
      interleavedToAmbiguity(raw);
      exec(raw, receipt("e2", "c1", "AMBIGUOUS", 14, null));
      exec(raw, receipt("e1", "c1", "AMBIGUOUS", 14, null));
      advance(raw, "e1", "AMBIGUOUS", "FAILED_SAFE", 16, 16L);
      exec(raw, receipt("e1", "c1", "FAILED_SAFE", 16, 14L));
    }
    List<String> clock;
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      clock = strings(raw, "SELECT execution_id || '@' || started_db_at FROM dispatch_clock ORDER BY execution_id");
    }
    assertThat(clock).hasSize(2);

    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(old)) {
      assertThat(store.info().schemaVersion()).isEqualTo("10");
      OrganizationId org = new OrganizationId("org");
      assertAmbiguityResolvedFailedSafe(store, org, new EffectId("e1"));
      assertThat(store.getReceiptsForEffect(org, new EffectId("e2"))).hasSize(1);
    }
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      assertThat(strings(raw, "SELECT history FROM executions WHERE execution_id = 'e2'")).containsExactly(
          "[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
              + "[\"DISPATCH_STARTED\",13,null],[\"AMBIGUOUS\",14,null]]");
      assertThat(strings(raw, "SELECT history FROM executions WHERE execution_id = 'e1'")).as("in its order")
          .containsExactly("[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
              + "[\"DISPATCH_STARTED\",13,null],[\"AMBIGUOUS\",14,null],[\"FAILED_SAFE\",16,16]]");
      assertThat(strings(raw, "SELECT name FROM sqlite_master WHERE name = 'execution_history'"))
          .as("the version-1 history table, copied into the rows").isEmpty();
      assertThat(strings(raw, "SELECT execution_id || ':' || sequence || ':' || final_state FROM receipts"
          + " ORDER BY execution_id, sequence"))
          .containsExactly("e1:1:AMBIGUOUS", "e1:2:FAILED_SAFE", "e2:1:AMBIGUOUS");
      assertThat(strings(raw, "SELECT execution_id || '@' || started_db_at FROM dispatch_clock ORDER BY execution_id"))
          .as("the clock of earlier dispatches stays where it was").isEqualTo(clock);
      assertThat(strings(raw, "SELECT count(*) FROM executions WHERE dispatch_started_db_at IS NOT NULL"))
          .containsExactly("0");
      assertThat(strings(raw, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN"
          + " ('receipts', 'dispatch_clock')")).as("one b-tree each, no other index")
          .isEmpty();
    }
  }

  @Test
  void theStoreNumbersEachEffectsReceiptsFromOne() throws Exception {
    try (Connection raw = raw()) {
      insertEffect(raw, "e1", "k1", 1);
      insertEffect(raw, "e2", "k2", 1);
      for (String id : List.of("e1", "e2")) {
        advanceToPrepared(raw, id);
        startDispatch(raw, id);
        advance(raw, id, "DISPATCH_STARTED", "AMBIGUOUS", 14);
        exec(raw, numberedReceipt(id, "c1", "AMBIGUOUS", 14, null));
      }
      assertRefused(raw, receipt("e1", "c1", "AMBIGUOUS", 15, null).replace("INSERT INTO receipts (",
          "INSERT INTO receipts (sequence, ").replace("VALUES ('org'", "VALUES (1, 'org'"),
          "receipt position already exists");
      assertThat(strings(raw, "SELECT execution_id || ':' || sequence FROM receipts ORDER BY execution_id"))
          .containsExactly("e1:1", "e2:1");
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(Dialect.class)
  void eachDialectsIndexNamesExactlyTheScriptsInItsLocation(Dialect dialect) throws Exception {
    java.nio.file.Path location = java.nio.file.Path.of("src/main/resources",
        dialect.migrationLocation().substring("classpath:".length()));
    List<String> scripts;
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(location)) {
      scripts = files.map(file -> file.getFileName().toString()).filter(name -> name.matches("V.+__.+\\.sql"))
          .toList();
    }

    assertThat(BundledMigrations.of(dialect, getClass().getClassLoader()).scripts())
        .extracting(BundledMigrations.Script::name).containsExactlyInAnyOrderElementsOf(scripts).isNotEmpty();
  }

  @Test
  void theShippedMigrationsAreReadOncePerDialect() {
    BundledMigrations shipped = BundledMigrations.shipped(Dialect.SQLITE);

    assertThat(BundledMigrations.shipped(Dialect.SQLITE)).isSameAs(shipped);
    assertThat(shipped.scripts()).isEqualTo(
        BundledMigrations.of(Dialect.SQLITE, getClass().getClassLoader()).scripts());
    assertThat(BundledMigrations.shipped(Dialect.POSTGRESQL).scripts()).extracting(BundledMigrations.Script::name)
        .allMatch(name -> name.startsWith("V"));
  }

  @Test
  void theShippedChecksumsAreTheOnesFlywayRecordedSoACurrentSchemaNeedsNoFlywayRun() throws Exception {
    BundledMigrations bundled = BundledMigrations.of(Dialect.SQLITE, getClass().getClassLoader());
    try (Connection raw = raw(); Statement statement = raw.createStatement();
        java.sql.ResultSet rows = statement.executeQuery(
            "SELECT version, script, checksum, success FROM zeocore_schema_history")) {
      List<BundledMigrations.Applied> history = new java.util.ArrayList<>();
      while (rows.next()) {
        int checksum = rows.getInt(3);
        history.add(new BundledMigrations.Applied(rows.getString(1), rows.getString(2),
            rows.wasNull() ? null : checksum, rows.getBoolean(4)));
      }
      assertThat(bundled.scripts()).extracting(BundledMigrations.Script::checksum).containsExactlyElementsOf(
          history.stream().filter(row -> row.checksum() != null).map(BundledMigrations.Applied::checksum).toList());
      assertThat(bundled.appliedIn(history)).isTrue();
    }
  }

  @Test
  void aHistoryThatDiffersFromTheShippedScriptsIsLeftToFlyway() {
    BundledMigrations bundled = new BundledMigrations(List.of(new BundledMigrations.Script("1", "V1__a.sql", 7),
        new BundledMigrations.Script("2", "V2__b.sql", 8)));
    BundledMigrations.Applied baseline = new BundledMigrations.Applied("0", "<< Flyway Baseline >>", null, true);
    BundledMigrations.Applied one = new BundledMigrations.Applied("1", "V1__a.sql", 7, true);
    BundledMigrations.Applied two = new BundledMigrations.Applied("2", "V2__b.sql", 8, true);

    assertThat(bundled.appliedIn(List.of(baseline, one, two))).isTrue();
    assertThat(bundled.appliedIn(List.of(one))).as("a migration missing").isFalse();
    assertThat(bundled.appliedIn(List.of(one, new BundledMigrations.Applied("2", "V2__b.sql", 9, true))))
        .as("an edited script").isFalse();
    assertThat(bundled.appliedIn(List.of(one, new BundledMigrations.Applied("2", "V2__b.sql", 8, false))))
        .as("a failed migration").isFalse();
    assertThat(bundled.appliedIn(List.of(one, two, new BundledMigrations.Applied("3", "V3__c.sql", 1, true))))
        .as("a migration this build does not ship").isFalse();
    assertThat(bundled.appliedIn(List.of())).as("a new database").isFalse();
  }

  @Test
  void anEditedAppliedScriptIsStillRefusedByFlywaysValidation() throws Exception {
    try (Connection raw = raw(); Statement statement = raw.createStatement()) {
      statement.executeUpdate("UPDATE zeocore_schema_history SET checksum = checksum + 1 WHERE version = '2'");
    }
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      assertThatThrownBy(() -> ZeoCoreSchema.migrate(database.migrationDataSource(), Dialect.SQLITE))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("checksum");
    }
  }

  @Test
  void keepsItsHistoryInItsOwnTableAndCreatesTheReferenceTables() throws Exception {
    try (Connection raw = raw()) {
      List<String> tables = strings(raw, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      assertThat(tables).contains("zeocore_schema_history", "connections", "connector_revisions", "executions",
          "execution_transitions", "receipts", "evidence_references", "authorization_nonces", "observations",
          "observation_receipts");
      assertThat(tables).doesNotContain("flyway_schema_history", "execution_history", "confirmation_evidence");
    }
  }

  @Test
  void reportsNoVersionForADatabaseNeverMigrated() throws Exception {
    try (SqliteDatabase other = SqliteDatabase.open(temp.resolve("other.db"))) {
      assertThat(ZeoCoreSchema.appliedVersion(other.migrationDataSource(), Dialect.SQLITE)).isEmpty();
    }
  }

  @Test
  void migratesNextToAnApplicationsOwnTables() throws Exception {
    Path appFile = temp.resolve("app.db");
    try (SqliteDatabase app = SqliteDatabase.open(appFile)) {
      app.database().write(s -> s.update("CREATE TABLE orders (id INTEGER PRIMARY KEY)"));
      ZeoCoreSchema.Migration migration = ZeoCoreSchema.migrate(app.migrationDataSource(), Dialect.SQLITE);
      assertThat(migration.schemaVersion()).isEqualTo("10");
      boolean kept = app.database().read(s -> s.exists("SELECT 1 FROM sqlite_master WHERE name = 'orders'"));
      assertThat(kept).isTrue();
    }
  }

  @Test
  void refusesADatabaseMigratedByANewerZeoCore() throws Exception {
    try (Connection raw = raw(); Statement statement = raw.createStatement()) {
      statement.executeUpdate("INSERT INTO zeocore_schema_history (installed_rank, version, description, type, script,"
          + " checksum, installed_by, execution_time, success) VALUES (99, '99', 'future', 'SQL', 'V99__future.sql',"
          + " 0, 'test', 0, 1)");
    }
    try (SqliteDatabase database = SqliteDatabase.open(file)) {
      assertThatThrownBy(() -> ZeoCoreSchema.migrate(database.migrationDataSource(), Dialect.SQLITE))
          .isInstanceOf(ConnectionStoreException.class)
          .hasMessage("database schema is newer than this ZeoCore build");
    }
  }

  @Test
  void refusesANewerSchemaBeforeAnythingTouchesTheDatabase() throws Exception {
    Path newer = temp.resolve("newer.db");
    try (SqliteDatabase database = SqliteDatabase.open(newer)) {
      database.database().write(s -> s.update("CREATE TABLE zeocore_schema_history (installed_rank INTEGER PRIMARY KEY,"
          + " version TEXT, description TEXT NOT NULL, type TEXT NOT NULL, script TEXT NOT NULL, checksum INTEGER,"
          + " installed_by TEXT NOT NULL, installed_on TEXT, execution_time INTEGER NOT NULL,"
          + " success INTEGER NOT NULL)"));
      database.database().write(s -> s.update("INSERT INTO zeocore_schema_history (installed_rank, version,"
          + " description, type, script, installed_by, execution_time, success) VALUES (1, '99', 'from the future',"
          + " 'SQL', 'V99__future.sql', 'test', 0, 1)"));

      assertThatThrownBy(() -> ZeoCoreSchema.migrate(database.migrationDataSource(), Dialect.SQLITE))
          .isInstanceOf(ConnectionStoreException.class)
          .hasMessage("database schema is newer than this ZeoCore build");

      // not one table, index, trigger or history row was added: no migration nor a baseline ran
      List<String> objects = database.database().read(s -> s.list("SELECT name FROM sqlite_master ORDER BY name",
          row -> row.getString(1)));
      assertThat(objects).containsExactly("zeocore_schema_history");
      List<String> versions = database.database().read(s -> s.list("SELECT version FROM zeocore_schema_history",
          row -> row.getString(1)));
      assertThat(versions).containsExactly("99");
    }
    assertThatThrownBy(() -> JdbcConnectionStore.builder().sqliteFile(newer).build())
        .isInstanceOf(ConnectionStoreException.class)
        .hasMessage("database schema is newer than this ZeoCore build");
  }

  @Test
  void latestVersionIsTheHighestMigrationThisBuildShips() throws Exception {
    for (Dialect dialect : Dialect.values()) {
      String location = dialect.migrationLocation().substring("classpath:".length());
      java.net.URL url = getClass().getClassLoader().getResource(location);
      assertThat(url).as(location).isNotNull();
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(Path.of(url.toURI()))) {
        List<Integer> versions = files.map(f -> f.getFileName().toString())
            .filter(name -> name.matches("V[0-9]+__.*\\.sql"))
            .map(name -> Integer.parseInt(name.substring(1, name.indexOf("__")))).sorted().toList();
        assertThat(versions).as(location).isNotEmpty();
        assertThat(String.valueOf(versions.get(versions.size() - 1))).as(location)
            .isEqualTo(ZeoCoreSchema.latestVersion(dialect));
      }
    }
    assertThat(ZeoCoreSchema.latestVersion(Dialect.SQLITE)).isEqualTo("10");
    assertThat(ZeoCoreSchema.latestVersion(Dialect.POSTGRESQL)).isEqualTo("10");
  }

  @Test
  void eachDialectNamesItsOwnMigrationsAndOnlyPostgresqlHasADefaultSchema() {
    assertThat(Dialect.SQLITE.migrationLocation()).isEqualTo("classpath:db/zeocore/sqlite");
    assertThat(Dialect.POSTGRESQL.migrationLocation()).isEqualTo("classpath:db/zeocore/postgresql");
    assertThat(Dialect.SQLITE.schema()).isEmpty();
    assertThat(Dialect.POSTGRESQL.schema()).contains(Dialect.POSTGRESQL_SCHEMA).contains("zeocore");
  }

  @Test
  void everyStateChangeMustAppendItsSnapshotToTheHistoryInTheRow() throws Exception {
    try (Connection raw = raw()) {
      insertEffect(raw, "e1", "k1", 1);
      advanceToPrepared(raw, "e1");
      String history = "[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null]]";
      assertThat(strings(raw, "SELECT history FROM executions WHERE execution_id = 'e1'")).containsExactly(history);

      String cancel = "UPDATE executions SET state = 'FAILED_SAFE', updated_at = 20, completed_at = 20";
      assertRefused(raw, cancel + " WHERE execution_id = 'e1'", "history must append the execution's new snapshot");
      assertRefused(raw, cancel + ", history = json_insert(history, '$[#]', json_array('FAILED_SAFE', 19, 20))",
          "history must append the execution's new snapshot");
      assertRefused(raw, cancel + ", history = json_array(json_array('FAILED_SAFE', 20, 20))",
          "history must append the execution's new snapshot");
      assertRefused(raw, cancel + ", history = json_insert(json_remove(history, '$[1]'), '$[#]',"
          + " json_array('FAILED_SAFE', 20, 20))", "history must append the execution's new snapshot");
      assertRefused(raw, cancel + ", history = NULL", "history must append the execution's new snapshot");
      assertRefused(raw, "UPDATE executions SET history = json_insert(history, '$[#]', json_array('PREPARED', 12,"
          + " NULL))", "transition is not allowed");
      assertThat(strings(raw, "SELECT history FROM executions WHERE execution_id = 'e1'")).containsExactly(history);
      exec(raw, cancel + ", history = json_insert(history, '$[#]', json_array('FAILED_SAFE', 20, 20))");
      assertThat(strings(raw, "SELECT history FROM executions WHERE execution_id = 'e1'")).as("exactly appended")
          .containsExactly(history.replace("]]", "],[\"FAILED_SAFE\",20,20]]"));

      String insert = executionInsert(raw, "e2", "k2", 1);
      String snapshot = "json_array(json_array('CREATED', 10, NULL))";
      assertThat(insert).contains(snapshot);
      assertRefused(raw, insert.replace(snapshot, "NULL"), "history must record the execution's current snapshot");
      assertRefused(raw, insert.replace(snapshot, "json_array(json_array('CREATED', 9, NULL))"),
          "history must record the execution's current snapshot");
      assertRefused(raw, insert.replace(snapshot, "json_array(json_array('PREPARED', 10, NULL), json_array("
          + "'CREATED', 10, NULL))"), "history must record the execution's current snapshot");
      assertThat(strings(raw, "SELECT execution_id FROM executions")).containsExactly("e1");
    }
  }

  @Test
  void theDispatchClockIsWrittenOnceByTheDatabaseInTheStatementThatStartsTheDispatch() throws Exception {
    try (Connection raw = raw()) {
      insertEffect(raw, "e1", "k1", 1);
      advanceToPrepared(raw, "e1");
      String dispatch = "UPDATE executions SET state = 'DISPATCH_STARTED', updated_at = 13"
          + SqliteDialect.INSTANCE.historyAppend("'DISPATCH_STARTED'", "13", "NULL");
      assertRefused(raw, dispatch + " WHERE execution_id = 'e1'", "written by the database when the dispatch starts");
      assertRefused(raw, dispatch + ", dispatch_started_db_at = 42 WHERE execution_id = 'e1'",
          "written by the database when the dispatch starts");
      long before = System.currentTimeMillis() * 1000;
      startDispatch(raw, "e1");
      long after = System.currentTimeMillis() * 1000;
      long started = Long.parseLong(strings(raw, "SELECT dispatch_started_db_at FROM executions").get(0));
      assertThat(started).as("the database's clock, epoch microseconds").isBetween(before - 1000, after + 1000);
      assertThat(strings(raw, "SELECT s.value ->> 0 FROM executions, json_each(history) s"
          + " WHERE execution_id = 'e1' ORDER BY s.key"))
          .containsExactly("CREATED", "AUTHORIZATION_VERIFIED", "PREPARED", "DISPATCH_STARTED");
      assertThat(strings(raw, "SELECT count(*) FROM dispatch_clock")).as("no row of the version-4 table")
          .containsExactly("0");

      String now = SqliteDialect.INSTANCE.databaseNowMicros();
      assertRefused(raw, "UPDATE executions SET dispatch_started_db_at = dispatch_started_db_at + 1",
          "the dispatch clock is append-only");
      assertRefused(raw, "UPDATE executions SET dispatch_started_db_at = NULL", "the dispatch clock is append-only");
      advance(raw, "e1", "DISPATCH_STARTED", "AMBIGUOUS", 14);
      assertThat(strings(raw, "SELECT dispatch_started_db_at FROM executions")).containsExactly(
          Long.toString(started));

      insertEffect(raw, "e2", "k2", 1);
      assertRefused(raw, "UPDATE executions SET dispatch_started_db_at = " + now + " WHERE execution_id = 'e2'",
          "written by the database when the dispatch starts");
      assertRefused(raw, "UPDATE executions SET state = 'AUTHORIZATION_VERIFIED', updated_at = 11,"
          + " dispatch_started_db_at = " + now + " WHERE execution_id = 'e2'",
          "written by the database when the dispatch starts");
      assertRefused(raw, executionInsert(raw, "e3", "k3", 1).replace("(organization_id,",
          "(dispatch_started_db_at, organization_id,").replace("VALUES (", "VALUES (" + now + ", "),
          "written by the database when the dispatch starts");
      assertThat(strings(raw, "SELECT execution_id || ':' || state || ':' || coalesce(dispatch_started_db_at, '-')"
          + " FROM executions ORDER BY execution_id")).containsExactly("e1:AMBIGUOUS:" + started, "e2:CREATED:-");
    }
  }

  /** Moves a PREPARED execution to DISPATCH_STARTED (at 13) as the store does: writing the database's clock. */
  /** An insert of execution {@code id} (created at 10) at {@code state}, with {@code history} and {@code clock}. */
  private static String chainInsert(String id, String state, long updatedAt, String history, String clock) {
    return "INSERT INTO executions (organization_id, execution_id, connection_id, connector_revision, operation_id,"
        + " authorization_id, idempotency_key, authorization_digest, request_digest, holds_identity, state, created_at,"
        + " updated_at, completed_at, history, dispatch_started_db_at) VALUES ('org', '" + id + "', 'c1', 'r1', 'op',"
        + " 'a1', 'k-" + id + "', 'ad', 'rd', 1, '" + state + "', 10, " + updatedAt + ", NULL, " + history + ", "
        + clock + ")";
  }

  @Test
  void theClaimInsertsItsWholeChainAtTheDispatchAndNoInsertReachesAnyOtherState() throws Exception {
    String now = SqliteDialect.INSTANCE.databaseNowMicros();
    String chain = "'[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
        + "[\"DISPATCH_STARTED\",13,null]]'";
    try (Connection raw = raw()) {
      long before = System.currentTimeMillis() * 1000;
      exec(raw, chainInsert("c1", "DISPATCH_STARTED", 13, chain, now));
      long after = System.currentTimeMillis() * 1000;
      assertThat(strings(raw, "SELECT s.value ->> 0 FROM executions, json_each(history) s ORDER BY s.key"))
          .containsExactly("CREATED", "AUTHORIZATION_VERIFIED", "PREPARED", "DISPATCH_STARTED");
      assertThat(Long.parseLong(strings(raw, "SELECT dispatch_started_db_at FROM executions").get(0)))
          .as("the clock of the insert that starts the dispatch").isBetween(before - 1000, after + 1000);
      // its outcome is a compare-and-set as before
      advance(raw, "c1", "DISPATCH_STARTED", "SUCCEEDED", 14, 14L);

      assertRefused(raw, chainInsert("x1", "DISPATCH_STARTED", 13, chain, "NULL"),
          "written by the database when the dispatch starts");
      assertRefused(raw, chainInsert("x2", "DISPATCH_STARTED", 13, chain, "42"),
          "written by the database when the dispatch starts");
      for (String state : List.of("AUTHORIZATION_VERIFIED", "PREPARED", "SUCCEEDED", "AMBIGUOUS", "FAILED_SAFE")) {
        assertRefused(raw, chainInsert("x-" + state, state, 13, chain, "NULL"),
            "first persisted state must be CREATED");
      }
      // anything but exactly the claim's chain: a step left out, one more, out of order, a time going back, one
      // before created_at, a completed snapshot, a time as text, not the row's last snapshot, no history, not JSON
      String[] malformed = {
          "'[[\"CREATED\",10,null],[\"PREPARED\",12,null],[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
              + "[\"PREPARED\",12,null],[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",10,null],[\"PREPARED\",11,null],[\"AUTHORIZATION_VERIFIED\",12,null],"
              + "[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",12,null],[\"PREPARED\",11,null],"
              + "[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",9,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
              + "[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",10,10],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
              + "[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",\"11\",null],[\"PREPARED\",12,null],"
              + "[\"DISPATCH_STARTED\",13,null]]'",
          "'[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",12,null],"
              + "[\"DISPATCH_STARTED\",14,null]]'",
          "'[[\"CREATED\",10,null],[\"AUTHORIZATION_VERIFIED\",11,null],[\"PREPARED\",14,null],"
              + "[\"DISPATCH_STARTED\",13,null]]'",
          "NULL",
          "'[[\"CREATED\",10,null]'"};
      for (int i = 0; i < malformed.length; i++) {
        assertRefused(raw, chainInsert("m" + i, "DISPATCH_STARTED", 13, malformed[i], now),
            "history must record the execution's current snapshot");
      }
      assertRefused(raw, chainInsert("c1", "DISPATCH_STARTED", 13, chain, now), "already exists");
      assertThat(strings(raw, "SELECT execution_id FROM executions")).containsExactly("c1");
    }
  }

  @Test
  void version10KeepsAVersion9StoreWithItsDataAndItsClaimIsOneInsert() throws Exception {
    Path old = databaseAtVersion("9");
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      exec(raw, "PRAGMA foreign_keys = ON");
      exec(raw, "PRAGMA recursive_triggers = ON");
      insertEffect(raw, "e1", "k1", 1);
      advanceToPrepared(raw, "e1");
      startDispatch(raw, "e1");
      advance(raw, "e1", "DISPATCH_STARTED", "AMBIGUOUS", 14);
      exec(raw, numberedReceipt("e1", "c1", "AMBIGUOUS", 14, null));
      advance(raw, "e1", "AMBIGUOUS", "FAILED_SAFE", 16, 16L);
      exec(raw, numberedReceipt("e1", "c1", "FAILED_SAFE", 16, 14L));
      insertEffect(raw, "e3", "k3", 1);
      advanceToPrepared(raw, "e3");
      startDispatch(raw, "e3");
    }
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(old)) {
      assertThat(store.info().schemaVersion()).isEqualTo("10");
      OrganizationId org = new OrganizationId("org");
      assertAmbiguityResolvedFailedSafe(store, org, new EffectId("e1"));
      assertThat(store.getEffect(org, new EffectId("e3"))).get().extracting(EffectRecord::state)
          .isEqualTo(EffectState.DISPATCH_STARTED);

      io.zeocore.connections.contract.Connection connection = ContractFixtures.connection();
      store.saveConnection(ContractFixtures.ORG, connection);
      List<EffectRecord> chain = AbstractJdbcConnectionStoreTest.toDispatchStarted(new EffectId("e-new"),
          ContractFixtures.KEY);
      assertThat(store.claimEffect(ContractFixtures.ORG, "n-new", chain, connection).claimed()).isTrue();
      assertThat(store.getEffectHistory(ContractFixtures.ORG, new EffectId("e-new")))
          .containsExactlyElementsOf(chain);
    }
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      assertThat(strings(raw, "SELECT count(*) FROM executions WHERE execution_id = 'e-new'"
          + " AND dispatch_started_db_at IS NOT NULL")).as("the insert set the dispatch clock").containsExactly("1");
      assertThat(strings(raw, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'executions'"
          + " AND name IN ('executions_history_inserted', 'executions_dispatch_clock_not_inserted')"))
          .as("folded into the insert guard").isEmpty();
    }
  }

  /** {@code id}'s six snapshots through {@code AMBIGUOUS} to {@code FAILED_SAFE}, and its two receipts, as kept. */
  private static void assertAmbiguityResolvedFailedSafe(JdbcConnectionStore store, OrganizationId org, EffectId id) {
    assertThat(store.getEffectHistory(org, id)).extracting(EffectRecord::state)
        .containsExactly(EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
            EffectState.DISPATCH_STARTED, EffectState.AMBIGUOUS, EffectState.FAILED_SAFE);
    assertThat(store.getReceiptsForEffect(org, id)).extracting(EffectReceipt::finalState)
        .containsExactly(EffectState.AMBIGUOUS, EffectState.FAILED_SAFE);
  }

  private static void startDispatch(Connection raw, String id) throws SQLException {
    advance(raw, id, "PREPARED", "DISPATCH_STARTED", 13, null, SqliteDialect.INSTANCE.dispatchClockAssignment());
  }

  @Test
  void stateChangesOutsideTheTransitionTableAreRefused() throws Exception {
    try (Connection raw = raw()) {
      assertUpdatedEffectRules(raw);
      assertRefused(raw, "INSERT INTO execution_transitions VALUES ('SUCCEEDED', 'CREATED')",
          "transition table is fixed");
      assertRefused(raw, "DELETE FROM execution_transitions", "transition table is fixed");
      assertRefused(raw, "DELETE FROM executions", "never deleted");
    }
  }

  @Test
  void theFirstStateIsCreatedAndTheIdempotencyIdentityIsUniqueExceptForRefusals() throws Exception {
    try (Connection raw = raw()) {
      assertInsertedEffectRules(raw, "idempotency identity already exists", "execution id or idempotency identity already exists");
      assertRefused(raw, executionInsert(raw, "e5", "k1", 1).replace("INSERT", "INSERT OR REPLACE"),
          "idempotency identity already exists");
    }
  }

  @Test
  void appendOnlyTablesRefuseUpdateDeleteAndInsertOrReplace() throws Exception {
    try (Connection raw = raw()) {
      insertAppendOnlyRows(raw, Dialect.SQLITE);

      String[][] cases = {
          {"receipts", "1 = 1",
              "INSERT OR REPLACE INTO receipts (organization_id, execution_id, connection_id, final_state,"
                  + " error_code, error_message, recorded_at) VALUES ('org', 'e1', 'c1', 'REFUSED', 'REQUEST_REFUSED',"
                  + " 'other', 11)"},
          {"evidence_references", "1 = 1",
              "INSERT OR REPLACE INTO evidence_references VALUES ('org', 'e1', 'ref1', 1, 99, '" + "b".repeat(64)
                  + "')"},
          {"authorization_nonces", "1 = 1",
              "INSERT OR REPLACE INTO authorization_nonces VALUES ('org', 'n1', 99)"},
          {"connector_revisions", "1 = 1",
              "INSERT OR REPLACE INTO connector_revisions VALUES ('org', 'r1', '{\"changed\":true}')"},
      };
      for (String[] c : cases) {
        String table = c[0];
        String column = firstColumn(raw, table);
        assertRefused(raw, "UPDATE " + table + " SET " + column + " = " + column + " WHERE " + c[1], "zeocore-");
        assertRefused(raw, "DELETE FROM " + table, "zeocore-");
        assertRefused(raw, c[2], "zeocore-");
        assertRefused(raw, c[2].replace("OR REPLACE", "OR IGNORE").replace("INSERT OR IGNORE", "INSERT"),
            "zeocore-");
      }
      assertThat(strings(raw, "SELECT error_message FROM receipts")).containsExactly("refused");
      assertThat(strings(raw, "SELECT recorded_at FROM authorization_nonces")).containsExactly("10");
      assertThat(strings(raw, "SELECT document FROM connector_revisions")).containsExactly("{}");
    }
  }

  @Test
  void receiptsMustMatchTheEffectAndPointAtPersistedAmbiguity() throws Exception {
    try (Connection raw = raw()) {
      insertEffect(raw, "e1", "k1", 1);
      advanceToPrepared(raw, "e1");
      startDispatch(raw, "e1");
      assertRefused(raw, numberedReceipt("e1", "c1", "AMBIGUOUS", 14, null), "receipt state does not match execution");
      advance(raw, "e1", "DISPATCH_STARTED", "AMBIGUOUS", 14);
      assertRefused(raw, numberedReceipt("e1", "other", "AMBIGUOUS", 14, null), "receipt connection mismatch");
      assertRefused(raw, numberedReceipt("e9", "c1", "AMBIGUOUS", 14, null), "receipt execution does not exist");
      exec(raw, numberedReceipt("e1", "c1", "AMBIGUOUS", 14, null));
      assertRefused(raw, numberedReceipt("e1", "c1", "AMBIGUOUS", 15, null), "ambiguity receipt already exists");
      advance(raw, "e1", "AMBIGUOUS", "FAILED_SAFE", 16, 16L);
      assertRefused(raw, numberedReceipt("e1", "c1", "FAILED_SAFE", 16, 13L),
          "resolving receipt does not reference persisted ambiguity");
      exec(raw, numberedReceipt("e1", "c1", "FAILED_SAFE", 16, 14L));
      assertRefused(raw, numberedReceipt("e1", "c1", "FAILED_SAFE", 17, 14L), "outcome receipt already exists");
    }
  }

  @Test
  void anEvidenceReferenceAndItsConfirmationAreOneRowRecordedOnceForOneEffect() throws Exception {
    String digest = "a".repeat(64);
    try (Connection raw = raw()) {
      insertEffect(raw, "e1", "k1", 1);
      insertEffect(raw, "e2", "k2", 1);
      exec(raw, evidence("e1", "bare", 1, "NULL", "NULL"));
      exec(raw, evidence("e1", "confirmed", 2, "10", "'" + digest + "'"));
      assertRefused(raw, evidence("e2", "bare", 1, "NULL", "NULL"), "evidence reference already exists");
      assertRefused(raw, evidence("e1", "third", 2, "NULL", "NULL"), "evidence position already exists");
      assertRefused(raw, evidence("e9", "fourth", 1, "NULL", "NULL"), "execution does not exist in organization");
      assertRefused(raw, evidence("e2", "half", 1, "10", "NULL"), "CHECK constraint failed");
      assertRefused(raw, evidence("e2", "half", 1, "NULL", "'" + digest + "'"), "CHECK constraint failed");
      assertRefused(raw, evidence("e2", "upper", 1, "10", "'" + "A".repeat(64) + "'"), "CHECK constraint failed");
      assertRefused(raw, "UPDATE evidence_references SET observed_at = 11 WHERE evidence_ref = 'confirmed'",
          "evidence is append-only");
      assertRefused(raw, "UPDATE evidence_references SET observed_at = 10, confirmation_digest = '" + digest
          + "' WHERE evidence_ref = 'bare'", "evidence is append-only");

      advanceToPrepared(raw, "e2");
      startDispatch(raw, "e2");
      advance(raw, "e2", "DISPATCH_STARTED", "FAILED_SAFE", 14, 14L);
      assertRefused(raw, numberedReceipt("e2", "c1", "FAILED_SAFE", 14, null)
          .replace("reconciliation_evidence,", "reconciliation_evidence, confirmation_evidence_ref,")
          .replace(", NULL, NULL, NULL)", ", NULL, NULL, 'confirmed', NULL)"),
          "receipt evidence reference lacks provenance");
      assertThat(strings(raw, "SELECT evidence_ref || ':' || sequence || ':' || coalesce(confirmation_digest, '-')"
          + " FROM evidence_references ORDER BY execution_id, sequence"))
          .containsExactly("bare:1:-", "confirmed:2:" + digest);
      assertThat(strings(raw, "SELECT name FROM sqlite_master WHERE type = 'index'"
          + " AND tbl_name = 'evidence_references'"))
          .as("the key and one index: two b-trees").containsExactly("evidence_references_ref_once");
    }
  }

  /** A new database file migrated by Flyway up to {@code version} of the shipped scripts only. */
  private Path databaseAtVersion(String version) {
    Path old = temp.resolve("version" + version + ".db");
    try (SqliteDatabase database = SqliteDatabase.open(old)) {
      org.flywaydb.core.Flyway.configure(getClass().getClassLoader()).dataSource(database.migrationDataSource())
          .table(ZeoCoreSchema.HISTORY_TABLE).locations(Dialect.SQLITE.migrationLocation()).target(version).load()
          .migrate();
    }
    return old;
  }

  private static String evidence(String effect, String ref, int sequence, String observedAt, String digest) {
    return "INSERT INTO evidence_references VALUES ('org', '" + effect + "', '" + ref + "', " + sequence + ", "
        + observedAt + ", " + digest + ")";
  }

  @Test
  void version8KeepsEveryEvidenceReferenceWithItsConfirmationAndTheReceiptsThatNameThem() throws Exception {
    Path old = populatedVersion7();

    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(old)) {
      assertThat(store.info().schemaVersion()).isEqualTo("10");
      OrganizationId org = new OrganizationId("org");
      assertThat(store.getEvidenceReferencesForEffect(org, new EffectId("e1"))).as("in the order recorded")
          .containsExactly(new ConfirmationEvidenceRef(REF_B), new ConfirmationEvidenceRef(REF_A));
      assertThat(store.getEvidenceReferencesForEffect(org, new EffectId("e2")))
          .containsExactly(new ConfirmationEvidenceRef(REF_Y), new ConfirmationEvidenceRef(REF_X));
      assertThat(store.getConfirmationEvidence(org, new ConfirmationEvidenceRef(REF_A))).contains(
          new ConfirmationEvidence(new ConfirmationEvidenceRef(REF_A), org, new EffectId("e1"),
              Instant.EPOCH.plus(20, ChronoUnit.MICROS), DIGEST_B));
      assertThat(store.getConfirmationEvidence(org, new ConfirmationEvidenceRef(REF_B))).as("a bare reference")
          .isEmpty();
      assertThat(store.getReceiptsForEffect(org, new EffectId("e1"))).singleElement()
          .extracting(EffectReceipt::confirmationEvidenceRef).isEqualTo(new ConfirmationEvidenceRef(REF_A));
      assertThatThrownBy(() -> store.saveEvidenceReference(org, new EffectId("e2"),
          new ConfirmationEvidenceRef(REF_A))).hasMessage("evidence reference already exists");
    }
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      assertThat(strings(raw, "SELECT name FROM sqlite_master WHERE name = 'confirmation_evidence'")).isEmpty();
      assertThat(strings(raw, "SELECT execution_id || ':' || evidence_ref || ':' || sequence FROM evidence_references"
          + " ORDER BY execution_id, sequence"))
          .containsExactly("e1:" + REF_B + ":1", "e1:" + REF_A + ":2", "e2:" + REF_Y + ":1", "e2:" + REF_X + ":2");
      assertThat(strings(raw, "SELECT count(*) FROM pragma_foreign_key_check")).containsExactly("0");
    }
  }

  @Test
  void version8FailsAtItsCommitAndChangesNothingIfAReceiptWouldLoseItsReference() throws Exception {
    Path old = populatedVersion7();
    String script;
    try (var in = getClass().getResourceAsStream("/db/zeocore/sqlite/V8__evidence_in_one_row.sql")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    // the copy back loses the reference that e1's receipt names
    String losing = script.replace("FROM evidence_copy;", "FROM evidence_copy WHERE evidence_ref <> '" + REF_A + "';");
    assertThat(losing).isNotEqualTo(script);
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      exec(raw, "PRAGMA foreign_keys = ON");
      raw.setAutoCommit(false);
      // one statement at a time: a semicolon that ends a line before the next statement's keyword (or the end)
      String statements = losing.replaceAll("(?m)^--.*$", "");
      try (Statement statement = raw.createStatement()) {
        for (String sql : statements.split(";\\s*\\n(?=\\s*(?:CREATE|INSERT|DROP|PRAGMA|$))")) {
          if (!sql.isBlank()) {
            statement.execute(sql);
          }
        }
      }
      assertThatThrownBy(raw::commit).hasMessageContaining("FOREIGN KEY constraint failed");
      raw.rollback();
      raw.setAutoCommit(true);
      assertThat(strings(raw, "SELECT evidence_ref FROM confirmation_evidence")).containsExactly(REF_A);
      assertThat(strings(raw, "SELECT count(*) FROM evidence_references")).containsExactly("4");
    }
  }

  /**
   * A version-7 file holding effects e1 (succeeded, its receipt naming the confirmed reference {@link #REF_A}) and
   * e2, with two references each recorded alternately (so that the version-7 rowids interleave) and one confirmation.
   */
  private Path populatedVersion7() throws SQLException {
    Path old = databaseAtVersion("7");
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      exec(raw, "PRAGMA foreign_keys = ON");
      exec(raw, "PRAGMA recursive_triggers = ON");
      insertEffect(raw, "e1", "k1", 1);
      insertEffect(raw, "e2", "k2", 1);
      for (String[] reference : new String[][] {{"e1", REF_B}, {"e2", REF_Y}, {"e1", REF_A}, {"e2", REF_X}}) {
        exec(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref) VALUES ('org', '"
            + reference[0] + "', '" + reference[1] + "')");
      }
      exec(raw, "INSERT INTO confirmation_evidence VALUES ('org', 'e1', '" + REF_A + "', 20, '" + DIGEST_B + "')");
      advanceToPrepared(raw, "e1");
      startDispatch(raw, "e1");
      advance(raw, "e1", "DISPATCH_STARTED", "SUCCEEDED", 21, 21L);
      exec(raw, "INSERT INTO receipts (organization_id, execution_id, sequence, connection_id, final_state,"
          + " recorded_at, dispatch_started_at, confirmation_evidence_ref) VALUES ('org', 'e1', 1, 'c1', 'SUCCEEDED',"
          + " 21, 13, '" + REF_A + "')");
    }
    return old;
  }

  @Test
  void observationsMoveOnceFromClaimedToTerminal() throws Exception {
    try (Connection raw = raw()) {
      exec(raw, observationInsert("o1", "k1", "CLAIMED", null));
      assertRefused(raw, observationInsert("o2", "k1", "CLAIMED", null), "idempotency identity already exists");
      assertRefused(raw, "UPDATE observations SET state = 'CLAIMED' WHERE observation_id = 'o1'",
          "committed observation must be terminal");
      exec(raw, "UPDATE observations SET state = 'CONFIRMED', completed_at = 11 WHERE observation_id = 'o1'");
      assertRefused(raw, "UPDATE observations SET state = 'FAILED_SAFE' WHERE observation_id = 'o1'",
          "already terminal");
      assertRefused(raw, FAILED_SAFE_O1_RECEIPT, "does not match its record");
      exec(raw, confirmedReadReceipt("o1", "sha256:x", "{}"));
      assertRefused(raw, confirmedReadReceipt("o1", "sha256:y", "[]").replace("INSERT", "INSERT OR REPLACE"),
          "observation outcome already exists");
      assertRefused(raw, "DELETE FROM observation_receipts", "append-only");
      assertRefused(raw, "DELETE FROM observations", "never deleted");
    }
  }

  private Connection raw() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file);
  }

  private static String firstColumn(Connection raw, String table) throws SQLException {
    return strings(raw, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid LIMIT 1").get(0);
  }
}
