package io.zeocore.connections.store;

import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.HEX;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.SECRET_HANDLE;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static io.zeocore.connections.store.Sleeps.sleepQuietly;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadRecord;
import io.zeocore.connections.contract.ReadState;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store's behaviour that every dialect must show, run by {@link JdbcConnectionStoreTest} (SQLite) and
 * {@link PostgresConnectionStoreTest} (PostgreSQL). Each test gets an empty store whose evidence ids come from
 * {@link SequentialUuids}.
 */
abstract class AbstractJdbcConnectionStoreTest {

  static final OrganizationId OTHER_ORG = new OrganizationId("org-2");

  JdbcConnectionStore store;

  /** An empty, migrated store with {@code new SequentialUuids()} as its evidence ids. */
  abstract JdbcConnectionStore openStore();

  @BeforeEach
  void open() {
    store = openStore();
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  /** CREATED at T+1µs, then one snapshot per state, each 1µs later. */
  static List<EffectRecord> chain(EffectId id, IdempotencyKey key, EffectState... states) {
    Instant created = T.plus(1, ChronoUnit.MICROS);
    EffectRecord current = new EffectRecord(id, ORG, CONNECTION, REVISION, CREATE_REFUND, new AuthorizationId("auth-" + id),
        key, "sha256:" + "b".repeat(64), Digests.requestDigest(ContractFixtures.BODY), EffectState.CREATED,
        created, created, null);
    List<EffectRecord> snapshots = new ArrayList<>(List.of(current));
    for (EffectState state : states) {
      current = current.transitionTo(state, current.updatedAt().plus(1, ChronoUnit.MICROS));
      snapshots.add(current);
    }
    return snapshots;
  }

  static List<EffectRecord> toDispatchStarted(EffectId id, IdempotencyKey key) {
    return chain(id, key, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
        EffectState.DISPATCH_STARTED);
  }

  static EffectRecord last(List<EffectRecord> snapshots) {
    return snapshots.get(snapshots.size() - 1);
  }

  @Test
  void connectionsRoundTripWithTheirRealSecretHandleAndAreOrganizationScoped() {
    Connection connection = ContractFixtures.connection();
    store.saveConnection(ORG, connection);
    assertThat(store.getConnection(ORG, CONNECTION)).contains(connection);
    assertThat(store.getConnection(ORG, CONNECTION).orElseThrow().secretHandle().handle()).isEqualTo(SECRET_HANDLE);
    assertThat(store.getConnection(OTHER_ORG, CONNECTION)).isEmpty();

    Connection revoked = new Connection(CONNECTION, ORG, connection.connectorId(), REVISION,
        connection.providerApplicationProfile(), connection.verifiedExternalIdentity(), List.of(), List.of(),
        List.of(), connection.secretHandle(), ConnectionStatus.REVOKED, connection.health(), T, null, T);
    store.saveConnection(ORG, revoked);
    assertThat(store.getConnection(ORG, CONNECTION)).contains(revoked);

    assertThatThrownBy(() -> store.saveConnection(OTHER_ORG, connection))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("connection organization mismatch");
  }

  @Test
  void connectorRevisionsAreImmutableAndStoredPerOrganization() {
    ConnectorRevision revision = ContractFixtures.revision();
    store.saveConnectorRevision(ORG, revision);
    store.saveConnectorRevision(ORG, revision);
    assertThat(store.getConnectorRevision(ORG, REVISION)).contains(revision);
    assertThat(store.getConnectorRevision(OTHER_ORG, REVISION)).isEmpty();

    ConnectorRevision changed = ContractFixtures.revision(List.of(ContractFixtures.refundOperation()));
    assertThatThrownBy(() -> store.saveConnectorRevision(ORG, changed))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("connector revision is immutable");
    store.saveConnectorRevision(OTHER_ORG, changed);
    assertThat(store.getConnectorRevision(OTHER_ORG, REVISION)).contains(changed);
    assertThat(store.getConnectorRevision(ORG, REVISION)).contains(revision);
  }

  @Test
  void aClaimWritesTheNonceTheEffectAndEverySnapshotInOneTransaction() {
    List<EffectRecord> snapshots = toDispatchStarted(EXECUTION, KEY);
    EffectClaim claim = store.claimEffect(ORG, "nonce-1", snapshots);

    assertThat(claim.claimed()).isTrue();
    assertThat(claim.effect()).isEqualTo(last(snapshots));
    assertThat(store.getEffect(ORG, EXECUTION)).contains(last(snapshots));
    assertThat(store.getEffectHistory(ORG, EXECUTION)).containsExactlyElementsOf(snapshots);
    assertThat(store.hasAuthorizationNonce(ORG, "nonce-1")).isTrue();
    assertThat(store.hasAuthorizationNonce(OTHER_ORG, "nonce-1")).isFalse();
    assertThat(store.getEffectByIdempotency(ORG, CONNECTION, REVISION, CREATE_REFUND, KEY))
        .contains(last(snapshots));
    assertThat(store.getEffect(OTHER_ORG, EXECUTION)).isEmpty();
    assertThat(store.getEffectHistory(OTHER_ORG, EXECUTION)).isEmpty();
  }

  @Test
  void aClaimHoldingTheConnectionIsWrittenOnlyWhileThatConnectionIsTheStoredOne() {
    Connection saved = ContractFixtures.connection();
    store.saveConnection(ORG, saved);
    Connection checked = store.getConnection(ORG, CONNECTION).orElseThrow();
    Connection revoked = new Connection(CONNECTION, ORG, saved.connectorId(), REVISION,
        saved.providerApplicationProfile(), saved.verifiedExternalIdentity(), List.of(), List.of(), List.of(),
        saved.secretHandle(), ConnectionStatus.REVOKED, saved.health(), T, null, T);

    // an equal connection that is not the instance the store handed out is compared by its document
    assertThat(store.claimEffect(ORG, "nonce-1", toDispatchStarted(EXECUTION, KEY), saved).claimed()).isTrue();
    assertThat(store.claimEffect(ORG, "nonce-2", toDispatchStarted(new EffectId("exec-2"), new IdempotencyKey(
        "key-2")), checked).claimed()).isTrue();

    store.saveConnection(ORG, revoked);
    List<EffectRecord> third = toDispatchStarted(new EffectId("exec-3"), new IdempotencyKey("key-3"));
    for (Connection stale : List.of(checked, saved)) {
      assertThatThrownBy(() -> store.claimEffect(ORG, "nonce-3", third, stale))
          .isInstanceOf(ConnectionChangedException.class)
          .hasMessage("the connection changed since it was checked");
    }
    assertThat(store.hasAuthorizationNonce(ORG, "nonce-3")).as("nothing written").isFalse();
    assertThat(store.getEffect(ORG, new EffectId("exec-3"))).isEmpty();
    // the connection of the same id in another organization is not this one's
    List<EffectRecord> elsewhere = toDispatchStarted(new EffectId("exec-4"), new IdempotencyKey("key-4")).stream()
        .map(e -> new EffectRecord(e.effectId(), OTHER_ORG, e.connectionId(), e.connectorRevision(),
            e.operationId(), e.authorizationId(), e.idempotencyKey(), e.authorizationDigest(), e.requestDigest(),
            e.state(), e.createdAt(), e.updatedAt(), e.completedAt())).toList();
    Connection notStoredThere = new Connection(CONNECTION, OTHER_ORG, saved.connectorId(), REVISION,
        saved.providerApplicationProfile(), saved.verifiedExternalIdentity(), List.of(), List.of(), List.of(),
        saved.secretHandle(), ConnectionStatus.REVOKED, saved.health(), T, null, T);
    assertThatThrownBy(() -> store.claimEffect(OTHER_ORG, "nonce-4", elsewhere, notStoredThere))
        .isInstanceOf(ConnectionChangedException.class);
    assertThatThrownBy(() -> store.claimEffect(OTHER_ORG, "nonce-4", elsewhere, revoked))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("connection organization mismatch");
    assertThat(store.getEffect(OTHER_ORG, new EffectId("exec-4"))).isEmpty();
    // the stored one claims; a connection that is not the execution's is refused before anything is read
    assertThat(store.claimEffect(ORG, "nonce-3", third, revoked).claimed()).isTrue();
    Connection another = new Connection(new ConnectionId("conn-other"), ORG, saved.connectorId(), REVISION,
        saved.providerApplicationProfile(), saved.verifiedExternalIdentity(), List.of(), List.of(), List.of(),
        saved.secretHandle(), ConnectionStatus.ACTIVE, saved.health(), T, null, null);
    assertThatThrownBy(() -> store.claimEffect(ORG, "nonce-5",
        toDispatchStarted(new EffectId("exec-5"), new IdempotencyKey("key-5")), another))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("the checked connection is not the execution's");
  }

  @Test
  void aLosingClaimWritesNothingAndReturnsTheWinner() {
    List<EffectRecord> winner = toDispatchStarted(EXECUTION, KEY);
    store.claimEffect(ORG, "nonce-1", winner);

    EffectClaim sameNonce = store.claimEffect(ORG, "nonce-1", toDispatchStarted(new EffectId("exec-2"), KEY));
    assertThat(sameNonce.claimed()).isFalse();
    assertThat(sameNonce.effect()).isEqualTo(last(winner));

    EffectClaim sameIdentity = store.claimEffect(ORG, "nonce-2",
        toDispatchStarted(new EffectId("exec-3"), KEY));
    assertThat(sameIdentity.claimed()).isFalse();
    assertThat(sameIdentity.effect().effectId()).isEqualTo(EXECUTION);
    assertThat(store.hasAuthorizationNonce(ORG, "nonce-2")).isFalse();
    assertThat(store.getEffect(ORG, new EffectId("exec-3"))).isEmpty();

    assertThatThrownBy(() -> store.claimEffect(ORG, "nonce-1",
        toDispatchStarted(new EffectId("exec-4"), new IdempotencyKey("other-key"))))
        .isInstanceOf(ConnectionStoreException.class)
        .hasMessage("authorization nonce or execution identity was already used");
    assertThat(store.getEffect(ORG, new EffectId("exec-4"))).isEmpty();
  }

  @Test
  void theSameIdempotencyIdentityCoexistsInTwoOrganizations() {
    store.claimEffect(ORG, "nonce-1", toDispatchStarted(EXECUTION, KEY));
    List<EffectRecord> other = new ArrayList<>();
    for (EffectRecord e : toDispatchStarted(EXECUTION, KEY)) {
      other.add(new EffectRecord(e.effectId(), OTHER_ORG, e.connectionId(), e.connectorRevision(), e.operationId(),
          e.authorizationId(), e.idempotencyKey(), e.authorizationDigest(), e.requestDigest(), e.state(),
          e.createdAt(), e.updatedAt(), e.completedAt()));
    }
    assertThat(store.claimEffect(OTHER_ORG, "nonce-1", other).claimed()).isTrue();
  }

  @Test
  void refusesMalformedSnapshotChainsBeforeWriting() {
    List<EffectRecord> skipping = chain(EXECUTION, KEY, EffectState.AUTHORIZATION_VERIFIED);
    EffectRecord created = skipping.get(0);
    assertThatThrownBy(() -> store.claimEffect(ORG, "n", List.of(skipping.get(1))))
        .hasMessage("claimed execution must start at CREATED");
    assertThatThrownBy(() -> store.claimEffect(ORG, "n", List.of(created,
        new EffectRecord(created.effectId(), ORG, CONNECTION, REVISION, CREATE_REFUND, created.authorizationId(), KEY,
            created.authorizationDigest(), created.requestDigest(), EffectState.PREPARED, created.createdAt(),
            created.updatedAt().plusSeconds(1), null))))
        .hasMessage("transition is not allowed");
    assertThatThrownBy(() -> store.claimEffect(ORG, "n", List.of(created,
        created.transitionTo(EffectState.AUTHORIZATION_VERIFIED, created.updatedAt()))))
        .hasMessage("snapshot timestamps must strictly increase");
    assertThatThrownBy(() -> store.claimEffect(OTHER_ORG, "n", skipping))
        .hasMessage("execution organization mismatch");
    assertThat(store.hasAuthorizationNonce(ORG, "n")).isFalse();
  }

  @Test
  void aSuccessfulOutcomeStoresEvidenceTheSnapshotAndTheReceiptTogether() {
    List<EffectRecord> claimed = toDispatchStarted(EXECUTION, KEY);
    store.claimEffect(ORG, "nonce-1", claimed);
    EffectRecord started = last(claimed);
    Instant completed = started.updatedAt().plus(1, ChronoUnit.MICROS);
    EffectRecord succeeded = started.transitionTo(EffectState.SUCCEEDED, completed);
    ConfirmationEvidence evidence = store.newConfirmationEvidence(ORG, EXECUTION, completed, HEX);
    EffectReceipt receipt = new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.SUCCEEDED, null,
        completed, started.updatedAt(), null, evidence.evidenceRef(), null, null, null);

    store.commitOutcome(ORG, succeeded, receipt, evidence);

    assertThat(evidence.evidenceRef().value()).isEqualTo("zeo-evidence:v1:" + SequentialUuids.uuid(1));
    assertThat(store.getEffect(ORG, EXECUTION)).contains(succeeded);
    assertThat(store.getReceiptsForEffect(ORG, EXECUTION)).containsExactly(receipt);
    assertThat(store.getConfirmationEvidence(ORG, evidence.evidenceRef())).contains(evidence);
    assertThat(store.getConfirmationEvidence(OTHER_ORG, evidence.evidenceRef())).isEmpty();
    assertThat(store.getEvidenceReferencesForEffect(ORG, EXECUTION)).containsExactly(evidence.evidenceRef());
    assertThat(store.getReceiptsForEffect(OTHER_ORG, EXECUTION)).isEmpty();
    assertThat(store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state)
        .containsExactly(EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
            EffectState.DISPATCH_STARTED, EffectState.SUCCEEDED);
  }

  @Test
  void anOutcomeIsACompareAndSetOnTheStateTheReceiptImplies() {
    Ambiguity ambiguity = claimThenCommitAmbiguity();

    // a second process that still believes DISPATCH_STARTED cannot record its direct outcome over the ambiguity
    Instant later = ambiguity.aMicrosecondLater();
    EffectRecord failed = ambiguity.effect().transitionTo(EffectState.FAILED_SAFE, later);
    EffectReceipt direct = new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.FAILED_SAFE,
        new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "no effect"), later, ambiguity.dispatchedAt(), null,
        null, null, null, null);
    assertThatThrownBy(() -> store.commitOutcome(ORG, failed, direct, null))
        .isInstanceOf(ConnectionStoreException.class)
        .hasMessageContaining("execution state changed concurrently");

    // the resolution of that ambiguity is accepted, once
    EffectReceipt resolving = noEffectResolution(later, ambiguity.dispatchedAt(), ambiguity.recordedAt());
    store.commitOutcome(ORG, failed, resolving, null);
    assertThatThrownBy(() -> store.commitOutcome(ORG, failed, resolving, null))
        .hasMessageContaining("execution state changed concurrently");
    assertThat(store.getReceiptsForEffect(ORG, EXECUTION)).extracting(EffectReceipt::finalState)
        .containsExactly(EffectState.AMBIGUOUS, EffectState.FAILED_SAFE);
  }

  @Test
  void aResolutionMustPointAtThePersistedAmbiguity() {
    Ambiguity ambiguity = claimThenCommitAmbiguity();
    Instant later = ambiguity.aMicrosecondLater();
    EffectReceipt wrongPointer = noEffectResolution(later, ambiguity.dispatchedAt(), ambiguity.dispatchedAt());

    assertThatThrownBy(() -> store.commitOutcome(ORG,
        ambiguity.effect().transitionTo(EffectState.FAILED_SAFE, later), wrongPointer, null))
        .isInstanceOf(ConnectionStoreException.class)
        .hasMessage("resolving receipt does not reference persisted ambiguity");
    assertThat(store.getEffect(ORG, EXECUTION)).contains(ambiguity.effect());
  }

  @Test
  void attemptReceiptsAppendWithoutChangingState() {
    Ambiguity ambiguity = claimThenCommitAmbiguity();
    EffectReceipt attempt = attemptReceipt(ambiguity.recordedAt().plusMillis(1), ambiguity.dispatchedAt());
    store.saveReceipt(ORG, attempt);

    assertThatThrownBy(() -> store.saveReceipt(ORG, attempt)).hasMessage("receipt timestamp already exists");
    assertThat(store.getReceiptsForEffect(ORG, EXECUTION)).hasSize(2).last().isEqualTo(attempt);
    assertThat(store.getEffectHistory(ORG, EXECUTION)).hasSize(5);
  }

  @Test
  void anOutcomeWhoseReceiptClashesWithHistoryConflictsAndRollsBackEntirely() {
    Ambiguity ambiguity = claimThenCommitAmbiguity();
    Instant attemptAt = ambiguity.aMicrosecondLater();
    store.saveReceipt(ORG, attemptReceipt(attemptAt, ambiguity.dispatchedAt()));
    // the resolution is recorded at the very instant of the attempt receipt: it clashes with the history
    EffectRecord succeeded = ambiguity.effect().transitionTo(EffectState.SUCCEEDED, attemptAt);
    ConfirmationEvidence evidence = store.newConfirmationEvidence(ORG, EXECUTION, attemptAt, HEX);
    EffectReceipt resolving = new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.SUCCEEDED, null,
        attemptAt, ambiguity.dispatchedAt(), attemptAt, evidence.evidenceRef(), HEX, ambiguity.recordedAt(), null);

    assertThatThrownBy(() -> store.commitOutcome(ORG, succeeded, resolving, evidence))
        .isInstanceOf(ConnectionStoreException.class)
        .hasMessage("outcome record conflicts with history");

    assertThat(store.getEffect(ORG, EXECUTION)).contains(ambiguity.effect());
    assertThat(store.getConfirmationEvidence(ORG, evidence.evidenceRef())).isEmpty();
    assertThat(store.getEvidenceReferencesForEffect(ORG, EXECUTION)).isEmpty();
    assertThat(store.getReceiptsForEffect(ORG, EXECUTION)).extracting(EffectReceipt::finalState)
        .containsExactly(EffectState.AMBIGUOUS, EffectState.AMBIGUOUS);
    assertThat(store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state)
        .endsWith(EffectState.DISPATCH_STARTED, EffectState.AMBIGUOUS);
  }

  @Test
  void receiptsAreCheckedAgainstTheEffect() {
    List<EffectRecord> claimed = toDispatchStarted(EXECUTION, KEY);
    store.claimEffect(ORG, "nonce-1", claimed);
    Instant at = last(claimed).updatedAt().plusMillis(1);
    EffectReceipt ambiguous = ambiguityReceipt(at, last(claimed).updatedAt());
    assertThatThrownBy(() -> store.saveReceipt(ORG, ambiguous)).hasMessage("receipt state does not match execution");
    assertThatThrownBy(() -> store.saveReceipt(OTHER_ORG, ambiguous)).hasMessage("receipt organization mismatch");
    EffectReceipt unknown = new EffectReceipt(new EffectId("nope"), ORG, CONNECTION,
        EffectState.AMBIGUOUS, ambiguous.normalizedError(), at, at, null, null, null, null, null);
    assertThatThrownBy(() -> store.saveReceipt(ORG, unknown)).hasMessage("receipt execution does not exist");
    EffectReceipt withDetail = new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "x", "provider said hello"), at, at, null, null,
        null, null, null);
    assertThatThrownBy(() -> store.saveReceipt(ORG, withDetail)).hasMessage("provider_detail is never persisted");
  }

  @Test
  void refusalsDoNotOccupyTheIdempotencyIdentityAndRecordingOneTwiceIsQuiet() {
    List<EffectRecord> refused = chain(EXECUTION, KEY, EffectState.REFUSED);
    EffectReceipt receipt = refusalReceipt(EXECUTION, last(refused).updatedAt());
    store.recordRefusal(ORG, refused, receipt);
    store.recordRefusal(ORG, refused, receipt);

    assertThat(store.getEffect(ORG, EXECUTION)).contains(last(refused));
    assertThat(store.getReceiptsForEffect(ORG, EXECUTION)).containsExactly(receipt);
    assertThat(store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state)
        .containsExactly(EffectState.CREATED, EffectState.REFUSED);
    assertThat(store.getEffectByIdempotency(ORG, CONNECTION, REVISION, CREATE_REFUND, KEY)).isEmpty();

    EffectClaim claim = store.claimEffect(ORG, "nonce-1", toDispatchStarted(new EffectId("exec-2"), KEY));
    assertThat(claim.claimed()).isTrue();
    store.recordRefusal(ORG, chain(new EffectId("exec-3"), KEY, EffectState.REFUSED),
        refusalReceipt(new EffectId("exec-3"), last(refused).updatedAt()));
    assertThat(store.getEffect(ORG, new EffectId("exec-3"))).map(EffectRecord::state)
        .contains(EffectState.REFUSED);
  }

  @Test
  void saveEffectInsertsAtCreatedAndAdvancesAlongEdgesOnly() {
    List<EffectRecord> snapshots = chain(EXECUTION, KEY, EffectState.AUTHORIZATION_VERIFIED);
    assertThatThrownBy(() -> store.saveEffect(ORG, snapshots.get(1)))
        .hasMessage("first persisted state must be CREATED");
    store.saveEffect(ORG, snapshots.get(0));
    store.saveEffect(ORG, snapshots.get(1));
    EffectRecord back = snapshots.get(1);
    assertThatThrownBy(() -> store.saveEffect(ORG, back)).hasMessage("transition is not allowed");
    EffectRecord early = new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND, back.authorizationId(), KEY,
        back.authorizationDigest(), back.requestDigest(), EffectState.PREPARED, back.createdAt(),
        back.createdAt(), null);
    assertThatThrownBy(() -> store.saveEffect(ORG, early)).hasMessage("updated_at must be monotonic");
    EffectRecord otherIdentity = new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND,
        new AuthorizationId("forged"), KEY, back.authorizationDigest(), back.requestDigest(),
        EffectState.PREPARED, back.createdAt(), back.updatedAt().plusSeconds(1), null);
    assertThatThrownBy(() -> store.saveEffect(ORG, otherIdentity)).hasMessage("execution identity is immutable");
    assertThat(store.getEffectHistory(ORG, EXECUTION)).containsExactlyElementsOf(snapshots);
  }

  @Test
  void evidenceNeedsAnExistingEffectAndIsNeverReused() {
    assertThatThrownBy(() -> store.saveConfirmationEvidence(ORG, EXECUTION, T, HEX))
        .hasMessage("execution does not exist in organization");
    store.claimEffect(ORG, "nonce-1", toDispatchStarted(EXECUTION, KEY));
    ConfirmationEvidence evidence = store.saveConfirmationEvidence(ORG, EXECUTION, T, HEX);
    assertThat(store.getConfirmationEvidence(ORG, evidence.evidenceRef())).contains(evidence);
    assertThatThrownBy(() -> store.saveEvidenceReference(ORG, EXECUTION, evidence.evidenceRef()))
        .hasMessage("evidence reference already exists");
    ConfirmationEvidenceRef another = ConfirmationEvidenceRef.of(UUID.randomUUID());
    store.saveEvidenceReference(ORG, EXECUTION, another);
    assertThat(store.getEvidenceReferencesForEffect(ORG, EXECUTION))
        .containsExactly(evidence.evidenceRef(), another);
  }

  @Test
  void nonceRecordingIsOneUse() {
    store.recordAuthorizationNonce(ORG, "n-1", T);
    assertThatThrownBy(() -> store.recordAuthorizationNonce(ORG, "n-1", T))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("authorization nonce was already used");
    store.recordAuthorizationNonce(OTHER_ORG, "n-1", T);
    assertThat(store.hasAuthorizationNonce(ORG, "n-1")).isTrue();
  }

  @Test
  void observationsClaimOnceCommitOnceAndKeepTheirReceipt() {
    ReadRecord claimed = ContractFixtures.read(ReadState.CLAIMED);
    ReadClaim claim = store.claimRead(ORG, claimed, "obs-nonce");
    assertThat(claim.claimed()).isTrue();
    assertThat(store.hasAuthorizationNonce(ORG, "obs-nonce")).isTrue();

    ReadRecord again = new ReadRecord(new ReadId("obs-2"), ORG, CONNECTION, REVISION,
        claimed.operationId(), claimed.authorizationId(), KEY, claimed.authorizationDigest(), claimed.requestDigest(),
        ReadState.CLAIMED, T, null);
    ReadClaim lost = store.claimRead(ORG, again, "obs-nonce-2");
    assertThat(lost.claimed()).isFalse();
    assertThat(lost.read()).isEqualTo(claimed);
    assertThat(store.hasAuthorizationNonce(ORG, "obs-nonce-2")).isFalse();

    ReadReceipt receipt = ContractFixtures.inlineReadReceipt();
    ReadRecord confirmed = claimed.complete(receipt);
    store.commitRead(ORG, confirmed, receipt);
    assertThat(store.getRead(ORG, claimed.readId())).contains(confirmed);
    assertThat(store.getReadReceipt(ORG, claimed.readId())).contains(receipt);
    assertThat(store.getReadReceipt(OTHER_ORG, claimed.readId())).isEmpty();
    assertThat(store.getReadByIdempotency(ORG, CONNECTION, REVISION, claimed.operationId(), KEY))
        .contains(confirmed);
    assertThatThrownBy(() -> store.commitRead(ORG, confirmed, receipt))
        .hasMessage("observation is already terminal");
  }

  @Test
  void artifactAndFailedReadReceiptsRoundTrip() {
    ReadRecord first = ContractFixtures.read(ReadState.CLAIMED);
    store.claimRead(ORG, first, "n1");
    ReadReceipt artifact = new ReadReceipt(first.readId(), ORG, CONNECTION,
        ReadState.CONFIRMED, first.requestDigest(), "sha256:" + HEX, null, ContractFixtures.artifact(), null,
        T.plusSeconds(1));
    store.commitRead(ORG, first.complete(artifact), artifact);
    assertThat(store.getReadReceipt(ORG, first.readId())).contains(artifact);

    ReadRecord second = new ReadRecord(new ReadId("obs-2"), ORG, CONNECTION, REVISION,
        first.operationId(), first.authorizationId(), new IdempotencyKey("k2"), first.authorizationDigest(),
        first.requestDigest(), ReadState.CLAIMED, T, null);
    store.claimRead(ORG, second, "n2");
    ReadReceipt failed = new ReadReceipt(second.readId(), ORG, CONNECTION,
        ReadState.FAILED_SAFE, second.requestDigest(), null, null, null,
        new NormalizedError(NormalizedErrorCode.PROVIDER_UNAVAILABLE, "provider observation did not complete"),
        T.plusSeconds(2));
    store.commitRead(ORG, second.complete(failed), failed);
    assertThat(store.getReadReceipt(ORG, second.readId())).contains(failed);
  }

  @Test
  void recoveryFindsStaleDispatchesThenAmbiguitiesAcrossOrganizations() {
    List<EffectRecord> stale = toDispatchStarted(EXECUTION, KEY);
    store.claimEffect(ORG, "n1", stale);
    List<EffectRecord> ambiguous = toDispatchStarted(new EffectId("exec-2"), new IdempotencyKey("k2"));
    store.claimEffect(ORG, "n2", ambiguous);
    EffectRecord started = last(ambiguous);
    Instant ambiguousAt = started.updatedAt().plus(1, ChronoUnit.MICROS);
    store.commitOutcome(ORG, started.transitionTo(EffectState.AMBIGUOUS, ambiguousAt),
        new EffectReceipt(started.effectId(), ORG, CONNECTION, EffectState.AMBIGUOUS,
            new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "unknown"), ambiguousAt, started.updatedAt(),
            null, null, null, null, null), null);
    store.saveReceipt(ORG, new EffectReceipt(started.effectId(), ORG, CONNECTION, EffectState.AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "unresolved"), ambiguousAt.plusSeconds(1),
        started.updatedAt(), null, null, null, null, HEX));

    // staleness by the database's clock: the dispatch committed just now is not an hour old, but is older than 0 s
    assertThat(store.findRecoveryCandidates(java.time.Duration.ofHours(1), 10))
        .extracting(c -> c.effect().effectId().value()).containsExactly("exec-2");
    sleepQuietly(5);
    List<RecoveryCandidate> candidates = store.findRecoveryCandidates(java.time.Duration.ofMillis(1), 10);
    assertThat(candidates).extracting(c -> c.effect().effectId().value()).containsExactly("exec-1", "exec-2");
    assertThat(candidates.get(0).reconciliationAttempts()).isZero();
    assertThat(candidates.get(0).lastReceiptAt()).isNull();
    assertThat(candidates.get(1).reconciliationAttempts()).isEqualTo(1);
    assertThat(candidates.get(1).lastReceiptAt()).isEqualTo(ambiguousAt.plusSeconds(1));
    assertThat(store.findRecoveryCandidates(java.time.Duration.ofMillis(1), 1)).hasSize(1);
  }

  @Test
  void aRecoveryLeaseIsHeldByOneHolderUntilReleasedOrExpired() throws Exception {
    store.claimEffect(ORG, "n1", toDispatchStarted(EXECUTION, KEY));
    java.time.Duration minute = java.time.Duration.ofMinutes(1);
    assertThat(store.claimRecoveryLease(ORG, EXECUTION, "sweeper-a", minute)).isTrue();
    assertThat(store.claimRecoveryLease(ORG, EXECUTION, "sweeper-b", minute)).isFalse();
    assertThat(store.claimRecoveryLease(ORG, EXECUTION, "sweeper-a", minute)).isFalse();
    store.releaseRecoveryLease(ORG, EXECUTION, "sweeper-b"); // not b's: left alone
    assertThat(store.claimRecoveryLease(ORG, EXECUTION, "sweeper-b", minute)).isFalse();
    store.releaseRecoveryLease(ORG, EXECUTION, "sweeper-a");
    assertThat(store.claimRecoveryLease(ORG, EXECUTION, "sweeper-b", java.time.Duration.ofMillis(1))).isTrue();
    sleepQuietly(10);
    // b died: its lease expired by the database's clock, a can take over
    assertThat(store.claimRecoveryLease(ORG, EXECUTION, "sweeper-a", minute)).isTrue();
  }

  @Test
  void countsEffectsByStateAcrossOrganizationsAndReportsTheSchemaVersion() {
    store.claimEffect(ORG, "n1", toDispatchStarted(EXECUTION, KEY));
    store.recordRefusal(ORG, chain(new EffectId("r1"), KEY, EffectState.REFUSED),
        refusalReceipt(new EffectId("r1"), T.plusSeconds(1)));

    Map<EffectState, Long> counts = store.effectCountsByState();
    assertThat(counts).hasSize(EffectState.values().length)
        .containsEntry(EffectState.DISPATCH_STARTED, 1L).containsEntry(EffectState.REFUSED, 1L)
        .containsEntry(EffectState.SUCCEEDED, 0L);

    StoreInfo info = store.info();
    assertThat(info.reachable()).isTrue();
    assertThat(info.dialect()).isEqualTo(store.dialect());
    assertThat(info.schemaVersion()).isEqualTo(ZeoCoreSchema.latestVersion(store.dialect()));
    assertThat(info.failure()).isNull();
  }

  /**
   * Claims {@link #EXECUTION} up to {@code DISPATCH_STARTED} and commits its ambiguity one microsecond after the
   * dispatch started.
   */
  private Ambiguity claimThenCommitAmbiguity() {
    List<EffectRecord> claimed = toDispatchStarted(EXECUTION, KEY);
    store.claimEffect(ORG, "nonce-1", claimed);
    EffectRecord started = last(claimed);
    Instant ambiguousAt = started.updatedAt().plus(1, ChronoUnit.MICROS);
    EffectRecord ambiguous = started.transitionTo(EffectState.AMBIGUOUS, ambiguousAt);
    store.commitOutcome(ORG, ambiguous, ambiguityReceipt(ambiguousAt, started.updatedAt()), null);
    return new Ambiguity(ambiguous, started.updatedAt());
  }

  /** A committed ambiguity: the {@code AMBIGUOUS} execution and the instant its dispatch started. */
  private record Ambiguity(EffectRecord effect, Instant dispatchedAt) {

    /** When the ambiguity (its execution snapshot and receipt) was recorded. */
    Instant recordedAt() {
      return effect.updatedAt();
    }

    /** The first instant after the ambiguity a later outcome or attempt can be recorded at. */
    Instant aMicrosecondLater() {
      return recordedAt().plus(1, ChronoUnit.MICROS);
    }
  }

  static EffectReceipt ambiguityReceipt(Instant at, Instant dispatchStartedAt) {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "dispatch started but outcome unknown"), at,
        dispatchStartedAt, null, null, null, null, null);
  }

  /** An unresolved reconciliation attempt on the ambiguous {@code EXECUTION}, its evidence digest {@code HEX}. */
  static EffectReceipt attemptReceipt(Instant at, Instant dispatchStartedAt) {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "unresolved"), at, dispatchStartedAt, null, null,
        null, null, HEX);
  }

  /**
   * The {@code FAILED_SAFE} resolution ("no effect") of the ambiguous {@code EXECUTION}, resolved at {@code at} with
   * evidence digest {@code HEX}, pointing at the ambiguity receipt recorded at {@code ambiguityRecordedAt}.
   */
  static EffectReceipt noEffectResolution(Instant at, Instant dispatchStartedAt, Instant ambiguityRecordedAt) {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.FAILED_SAFE,
        new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "no effect"), at, dispatchStartedAt, at, null, HEX,
        ambiguityRecordedAt, null);
  }

  static EffectReceipt refusalReceipt(EffectId id, Instant at) {
    return new EffectReceipt(id, ORG, CONNECTION, EffectState.REFUSED,
        new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "authorization refused: EXPIRED"), at, null, null,
        null, null, null, null);
  }
}
