package io.zeocore.connections.store;

import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.HEX;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store on PostgreSQL: the shared scenarios, plus what many application instances sharing one database need. Two
 * {@link DataSource}s stand for two application instances. Races are made deterministic by holding the contended
 * key or row in a third, open transaction until both instances are blocked on it, then letting go.
 */
class PostgresConnectionStoreTest extends AbstractJdbcConnectionStoreTest {

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  @Override
  JdbcConnectionStore openStore() {
    return instance(PostgresTestSchema.newDataSource());
  }

  JdbcConnectionStore instance(DataSource dataSource) {
    return JdbcConnectionStore.builder().dataSource(dataSource, Dialect.POSTGRESQL).schema(schema.name())
        .evidenceIds(new SequentialUuids()).migrate(false).build();
  }

  @Test
  void reportsItsSchemaAndVersionWithoutAFileAndLeavesTheDataSourceOpenWhenClosed() {
    StoreInfo info = store.info();
    assertThat(info.dialect()).isEqualTo(Dialect.POSTGRESQL);
    assertThat(info.schema()).isEqualTo(schema.name());
    assertThat(info.schemaVersion()).isEqualTo("10");
    assertThat(info.databaseFile()).isNull();
    assertThat(info.fileModes()).isEmpty();
    assertThat(store.schema()).contains(schema.name());
    assertThat(store.databaseFile()).isEmpty();

    store.close();
    assertThat(store.info().reachable()).isTrue();

    try (JdbcConnectionStore unmigrated = JdbcConnectionStore.builder()
        .dataSource(PostgresTestSchema.newDataSource(), Dialect.POSTGRESQL).schema(schema.name() + "_never")
        .migrate(false).build()) {
      StoreInfo never = unmigrated.info();
      assertThat(never.reachable()).isTrue();
      assertThat(never.schema()).isEqualTo(schema.name() + "_never");
      assertThat(never.schemaVersion()).isNull();
    }
  }

  @Test
  void reportsAnUnreachableDatabaseWithoutThrowing() {
    org.postgresql.ds.PGSimpleDataSource nowhere = new org.postgresql.ds.PGSimpleDataSource();
    nowhere.setServerNames(new String[] {"127.0.0.1"});
    nowhere.setPortNumbers(new int[] {1});
    nowhere.setConnectTimeout(1);
    try (JdbcConnectionStore unreachable = JdbcConnectionStore.builder().dataSource(nowhere, Dialect.POSTGRESQL)
        .schema(schema.name()).migrate(false).build()) {
      StoreInfo info = unreachable.info();
      assertThat(info.reachable()).isFalse();
      assertThat(info.schemaVersion()).isNull();
      assertThat(info.failure()).isNotBlank();
      assertThatThrownBy(unreachable::effectCountsByState).isInstanceOf(ConnectionStoreException.class)
          .hasMessage("counting executions failed");
    }
  }

  @Test
  void opensThroughAJdbcUrlAndDetectsTheDialectOfADataSource() {
    store.claimEffect(ORG, "n1", toDispatchStarted(EXECUTION, KEY));
    try (JdbcConnectionStore byUrl = JdbcConnectionStore.builder()
        .jdbcUrl(PostgresTestSchema.jdbcUrl(), PostgresTestSchema.user(), null).schema(schema.name()).build();
        JdbcConnectionStore detected = JdbcConnectionStore.builder().dataSource(PostgresTestSchema.newDataSource())
            .schema(schema.name()).build()) {
      assertThat(byUrl.dialect()).isEqualTo(Dialect.POSTGRESQL);
      assertThat(byUrl.getEffect(ORG, EXECUTION)).contains(last(toDispatchStarted(EXECUTION, KEY)));
      assertThat(detected.dialect()).isEqualTo(Dialect.POSTGRESQL);
      assertThat(detected.info().schemaVersion()).isEqualTo("10");
      assertThat(detected.effectCountsByState()).containsEntry(EffectState.DISPATCH_STARTED, 1L);
    }
  }

  @Test
  void refusesSchemaNamesThatAreNotPlainLowerCaseIdentifiers() {
    for (String bad : List.of("", "Zeocore", "zeo-core", "zeocore; DROP TABLE x", "pg_zeocore", "1abc",
        "a".repeat(64))) {
      assertThatThrownBy(() -> JdbcConnectionStore.builder().dataSource(PostgresTestSchema.newDataSource(),
          Dialect.POSTGRESQL).schema(bad).build())
          .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid schema name");
    }
  }

  @Test
  void twoInstancesClaimingTheSameAuthorizationAtOnceCommitExactlyOneClaim() throws Exception {
    try (JdbcConnectionStore first = instance(PostgresTestSchema.newDataSource());
        JdbcConnectionStore second = instance(PostgresTestSchema.newDataSource())) {
      List<EffectRecord> a = toDispatchStarted(new EffectId("exec-a"), KEY);
      List<EffectRecord> b = toDispatchStarted(new EffectId("exec-b"), KEY);
      List<EffectClaim> claims;
      // a third transaction holds the nonce, so both claims are in flight on the same key when it lets go
      try (Connection blocker = schema.connect()) {
        blocker.setAutoCommit(false);
        rawUpdate(blocker, "INSERT INTO " + schema.name() + ".authorization_nonces VALUES ('org-1', 'nonce-race', 1)");
        claims = schema.whileBlocked(blocker, false, List.of(
            () -> first.claimEffect(ORG, "nonce-race", a),
            () -> second.claimEffect(ORG, "nonce-race", b)));
      }
      assertThat(claims).filteredOn(EffectClaim::claimed).hasSize(1);
      EffectRecord winner = claims.stream().filter(EffectClaim::claimed).findFirst().orElseThrow().effect();
      assertThat(claims).extracting(EffectClaim::effect).containsOnly(winner);
      assertThat(store.effectCountsByState()).containsEntry(EffectState.DISPATCH_STARTED, 1L)
          .containsEntry(EffectState.CREATED, 0L);
      EffectId loser = winner.effectId().value().equals("exec-a") ? new EffectId("exec-b")
          : new EffectId("exec-a");
      assertThat(store.getEffect(ORG, loser)).isEmpty();
      assertThat(store.getEffectHistory(ORG, winner.effectId())).hasSize(4);
    }
  }

  @Test
  void claimsAndOutcomesAreOneFunctionCallEachAndFallBackToAReadCommittedTransaction() throws Exception {
    // zeocore_claim / zeocore_commit_outcome run alone in auto-commit mode at READ COMMITTED; a pool whose sessions
    // default to REPEATABLE READ gets the refusal (nothing written) once and then the transaction path
    for (String options : java.util.Arrays.asList(null, "-c default_transaction_isolation=repeatable\\ read")) {
      EffectId id = new EffectId(options == null ? "exec-rc" : "exec-rr");
      IdempotencyKey key = new IdempotencyKey(options == null ? "key-rc" : "key-rr");
      try (JdbcConnectionStore instance = instance(PostgresTestSchema.newDataSource(options))) {
        List<EffectRecord> claimed = toDispatchStarted(id, key);
        assertThat(instance.claimEffect(ORG, "nonce-" + id.value(), claimed).claimed()).isTrue();
        assertThat(instance.claimEffect(ORG, "nonce-" + id.value(), claimed).claimed()).as("replayed").isFalse();
        EffectRecord started = last(claimed);
        Instant at = started.updatedAt().plus(1, ChronoUnit.MICROS);
        // a reference of its own: every instance() draws evidence ids from the same fixed sequence
        ConfirmationEvidence evidence = new ConfirmationEvidence(
            io.zeocore.connections.contract.ConfirmationEvidenceRef.of(java.util.UUID.randomUUID()), ORG, id, at, HEX);
        instance.commitOutcome(ORG, started.transitionTo(EffectState.SUCCEEDED, at), new EffectReceipt(id, ORG,
            CONNECTION, EffectState.SUCCEEDED, null, at, started.updatedAt(), null, evidence.evidenceRef(), null,
            null, null), evidence);
        assertThatThrownBy(() -> instance.commitOutcome(ORG, started.transitionTo(EffectState.FAILED_SAFE, at),
            new EffectReceipt(id, ORG, CONNECTION, EffectState.FAILED_SAFE,
                new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "declined", null), at, started.updatedAt(),
                null, null, null, null, null), null))
            .isInstanceOf(ConnectionStoreException.class)
            .hasMessage("execution state changed concurrently: stored state is SUCCEEDED, expected DISPATCH_STARTED");
      }
      assertThat(store.getEffectHistory(ORG, id)).extracting(EffectRecord::state).containsExactly(
          EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED, EffectState.DISPATCH_STARTED,
          EffectState.SUCCEEDED);
      assertThat(store.getReceiptsForEffect(ORG, id)).singleElement()
          .extracting(EffectReceipt::finalState).isEqualTo(EffectState.SUCCEEDED);
      assertThat(store.getEvidenceReferencesForEffect(ORG, id)).hasSize(1);
    }
  }

  @Test
  void effectCommitsAreDurableWhenThePoolHandsOutManualCommitConnections() throws Exception {
    DataSource pool = PostgresTestSchema.newDataSource();
    DataSource manualCommit = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(pool, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("getConnection")) {
            ((Connection) result).setAutoCommit(false);
          }
          return result;
        });
    try (JdbcConnectionStore instance = instance(manualCommit)) {
      List<EffectRecord> claimed = toDispatchStarted(EXECUTION, KEY);
      assertThat(instance.claimEffect(ORG, "nonce-manual", claimed).claimed()).isTrue();
      EffectRecord started = last(claimed);
      Instant at = started.updatedAt().plus(1, ChronoUnit.MICROS);
      instance.commitOutcome(ORG, started.transitionTo(EffectState.FAILED_SAFE, at), new EffectReceipt(EXECUTION,
          ORG, CONNECTION, EffectState.FAILED_SAFE, new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "declined",
              null), at, started.updatedAt(), null, null, null, null, null), null);
    }
    // read through the suite's own store: both commits are visible from another connection
    assertThat(store.getEffect(ORG, EXECUTION).orElseThrow().state()).isEqualTo(EffectState.FAILED_SAFE);
    assertThat(store.getReceiptsForEffect(ORG, EXECUTION)).hasSize(1);
  }

  @Test
  void twoInstancesRecordingOutcomesForOneDispatchAtOnceCommitExactlyOne() throws Exception {
    raceTwoOutcomes(null);
  }

  @Test
  void theCompareAndSetHoldsWhenThePoolDefaultsToSerializable() throws Exception {
    // write transactions set READ COMMITTED themselves; at SERIALIZABLE the loser's update would fail with 40001
    // ("could not serialize access") instead of matching no row
    raceTwoOutcomes("-c default_transaction_isolation=serializable");
  }

  private void raceTwoOutcomes(String sessionOptions) throws Exception {
    List<EffectRecord> claimed = toDispatchStarted(EXECUTION, KEY);
    store.claimEffect(ORG, "nonce-1", claimed);
    EffectRecord started = last(claimed);
    Instant at = started.updatedAt().plus(1, ChronoUnit.MICROS);
    try (JdbcConnectionStore first = instance(PostgresTestSchema.newDataSource(sessionOptions));
        JdbcConnectionStore second = instance(PostgresTestSchema.newDataSource(sessionOptions))) {
      ConfirmationEvidence evidence = first.newConfirmationEvidence(ORG, EXECUTION, at, HEX);
      EffectReceipt succeeded = new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.SUCCEEDED, null,
          at, started.updatedAt(), null, evidence.evidenceRef(), null, null, null);
      EffectReceipt ambiguous = ambiguityReceipt(at, started.updatedAt());
      List<String> outcomes;
      // a third transaction holds the effect row, so both compare-and-set updates wait on it
      try (Connection blocker = schema.connect()) {
        blocker.setAutoCommit(false);
        rawUpdate(blocker, "SELECT 1 FROM " + schema.name() + ".executions WHERE execution_id = 'exec-1' FOR UPDATE");
        outcomes = schema.whileBlocked(blocker, true, List.of(
            () -> outcome(() -> first.commitOutcome(ORG, started.transitionTo(EffectState.SUCCEEDED, at),
                succeeded, evidence)),
            () -> outcome(() -> second.commitOutcome(ORG, started.transitionTo(EffectState.AMBIGUOUS, at),
                ambiguous, null))));
      }
      assertThat(outcomes).filteredOn("committed"::equals).hasSize(1);
      assertThat(outcomes).filteredOn(o -> o.startsWith("execution state changed concurrently")).hasSize(1);
      List<EffectReceipt> receipts = store.getReceiptsForEffect(ORG, EXECUTION);
      assertThat(receipts).hasSize(1);
      assertThat(store.getEffect(ORG, EXECUTION).orElseThrow().state()).isEqualTo(receipts.get(0).finalState());
      assertThat(store.getEffectHistory(ORG, EXECUTION)).hasSize(5);
      // the loser's evidence (if it was the confirmed outcome) was rolled back with it
      assertThat(store.getEvidenceReferencesForEffect(ORG, EXECUTION))
          .hasSize(receipts.get(0).finalState() == EffectState.SUCCEEDED ? 1 : 0);
    }
  }

  @Test
  void twoInstancesSavingTheSameConnectorRevisionAtOnceBothSucceed() throws Exception {
    ConnectorRevision revision = ContractFixtures.revision();
    store.saveConnectorRevision(OTHER_ORG, revision);
    try (JdbcConnectionStore first = instance(PostgresTestSchema.newDataSource());
        JdbcConnectionStore second = instance(PostgresTestSchema.newDataSource());
        Connection blocker = schema.connect()) {
      blocker.setAutoCommit(false);
      // the same document, inserted by "a third instance" whose transaction is still open
      rawUpdate(blocker, "INSERT INTO " + schema.name() + ".connector_revisions SELECT 'org-1', revision_id, document"
          + " FROM " + schema.name() + ".connector_revisions WHERE organization_id = 'org-2'");
      List<String> outcomes = schema.whileBlocked(blocker, true, List.of(
          () -> outcome(() -> first.saveConnectorRevision(ORG, revision)),
          () -> outcome(() -> second.saveConnectorRevision(ORG, revision))));
      assertThat(outcomes).containsOnly("committed");
    }
    assertThat(store.getConnectorRevision(ORG, REVISION)).contains(revision);
    ConnectorRevision changed = ContractFixtures.revision(List.of(ContractFixtures.refundOperation()));
    assertThatThrownBy(() -> store.saveConnectorRevision(ORG, changed)).hasMessage("connector revision is immutable");
  }

  @Test
  void uniqueViolationsAreReportedInTheSchemasWordsWithoutKeyValues() {
    store.claimEffect(ORG, "nonce-canary-7f3a", toDispatchStarted(EXECUTION, KEY));
    assertThatThrownBy(() -> store.recordAuthorizationNonce(ORG, "nonce-canary-7f3a", ContractFixtures.T))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("authorization nonce was already used");
    EffectRecord started = last(toDispatchStarted(EXECUTION, KEY));
    Instant at = started.updatedAt().plus(1, ChronoUnit.MICROS);
    store.commitOutcome(ORG, started.transitionTo(EffectState.AMBIGUOUS, at), ambiguityReceipt(at,
        started.updatedAt()), null);
    EffectReceipt secondAmbiguity = new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "again"), at.plusSeconds(1), started.updatedAt(),
        null, null, null, null, null);
    assertThatThrownBy(() -> store.saveReceipt(ORG, secondAmbiguity))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("ambiguity receipt already exists");
    assertThatThrownBy(() -> store.saveEffect(ORG, toDispatchStarted(new EffectId("exec-9"), KEY).get(0)))
        .isInstanceOf(ConnectionStoreException.class)
        .hasMessage("execution id or idempotency identity already exists");
  }

  // ---------------------------------------------------------------------------------------------------------------

  /** "committed", or the store's message when it refused. */
  static String outcome(Runnable write) {
    try {
      write.run();
      return "committed";
    } catch (ConnectionStoreException e) {
      return e.getMessage();
    }
  }

  private static void rawUpdate(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.execute();
    }
  }
}
