package io.zeocore.connections.effect;

import io.zeocore.connections.admission.PreflightCode;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import static io.zeocore.connections.contract.ContractFixtures.AUTHORIZATION;
import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.LIST_FILES;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static io.zeocore.connections.contract.EffectState.AMBIGUOUS;
import static io.zeocore.connections.contract.EffectState.DISPATCH_STARTED;
import static io.zeocore.connections.contract.EffectState.REFUSED;
import static io.zeocore.connections.contract.EffectState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.store.ConnectionChangedException;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.EffectStore;
import io.zeocore.connections.store.InterceptedEffectStore;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EffectOrchestratorTest {

  static final String CONFIRMATION = "c".repeat(64);

  @TempDir
  Path temp;

  EffectWorld world;
  EffectOrchestrator orchestrator;
  final AtomicInteger dispatches = new AtomicInteger();

  @BeforeEach
  void setUp() {
    world = new EffectWorld(temp);
    orchestrator = EffectOrchestrator.builder(world.store, world.verifier).clock(EffectWorld.fixedClock()).build();
  }

  @AfterEach
  void tearDown() {
    world.close();
  }

  EffectDispatcher confirming() {
    return request -> {
      dispatches.incrementAndGet();
      return EffectDispatchResult.confirmed(CONFIRMATION);
    };
  }

  static EffectReconciler noReconciliation() {
    return request -> {
      throw new AssertionError("the reconciler must not be called");
    };
  }

  EffectResult execute(EffectAuthorization authorization, EffectId id, byte[] body) {
    return orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization, id, body, confirming(),
        noReconciliation());
  }

  @Test
  void dispatchStartedIsCommittedBeforeTheDispatcherRuns() {
    AtomicReference<String> seenFromAnotherConnection = new AtomicReference<>();
    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1"), EXECUTION, BODY, request -> {
          try (var raw = DriverManager.getConnection("jdbc:sqlite:" + world.file);
              PreparedStatement query = raw.prepareStatement(
                  "SELECT state FROM executions WHERE organization_id = ? AND execution_id = ?")) {
            query.setString(1, ORG.value());
            query.setString(2, EXECUTION.value());
            try (ResultSet row = query.executeQuery()) {
              seenFromAnotherConnection.set(row.next() ? row.getString(1) : null);
            }
          }
          return EffectDispatchResult.confirmed(CONFIRMATION);
        }, noReconciliation());

    assertThat(seenFromAnotherConnection).hasValue("DISPATCH_STARTED");
    assertThat(result.state()).isEqualTo(SUCCEEDED);
  }

  @Test
  void twoThreadsRacingTheSameAuthorizationDispatchOnce() throws Exception {
    raceAndAssertOneDispatch(orchestrator, orchestrator);
  }

  @Test
  void twoStoreInstancesOnOneFileRacingTheSameAuthorizationDispatchOnce() throws Exception {
    try (JdbcConnectionStore second = JdbcConnectionStore.openSqlite(world.file)) {
      EffectOrchestrator other = EffectOrchestrator.builder(second, world.verifier)
          .clock(EffectWorld.fixedClock()).build();
      raceAndAssertOneDispatch(orchestrator, other);
    }
  }

  private void raceAndAssertOneDispatch(EffectOrchestrator first, EffectOrchestrator second) throws Exception {
    EffectAuthorization authorization = world.authorization("nonce-race");
    CountDownLatch inDispatcher = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CyclicBarrier start = new CyclicBarrier(2);
    EffectDispatcher blocking = request -> {
      dispatches.incrementAndGet();
      inDispatcher.countDown();
      assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
      return EffectDispatchResult.confirmed(CONFIRMATION);
    };
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<EffectResult>> results = new ArrayList<>();
      int i = 0;
      for (EffectOrchestrator o : List.of(first, second)) {
        EffectId id = new EffectId("exec-" + i++);
        results.add(threads.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          return o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization, id, BODY, blocking,
              noReconciliation());
        }));
      }
      assertThat(inDispatcher.await(10, TimeUnit.SECONDS)).isTrue();
      // the loser returns while the winner is still inside its dispatcher
      EffectResult loser = awaitFirstDone(results);
      assertThat(loser.state()).isEqualTo(DISPATCH_STARTED);
      assertThat(loser.refusalReason()).isNull();
      release.countDown();
      List<EffectResult> both = new ArrayList<>();
      for (Future<EffectResult> f : results) {
        both.add(f.get(10, TimeUnit.SECONDS));
      }
      assertThat(both).extracting(EffectResult::effectId).containsOnly(loser.effectId());
      assertThat(both).extracting(EffectResult::state).contains(SUCCEEDED, DISPATCH_STARTED);
      assertThat(dispatches).hasValue(1);
    } finally {
      release.countDown();
      threads.shutdownNow();
    }
  }

  private static EffectResult awaitFirstDone(List<Future<EffectResult>> futures) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      for (Future<EffectResult> f : futures) {
        if (f.isDone()) {
          return f.get();
        }
      }
      Thread.sleep(5);
    }
    throw new AssertionError("neither racer returned");
  }

  @Test
  void replayingASucceededAuthorizationReturnsItsOutcomeWithoutDispatching() {
    EffectAuthorization authorization = world.authorization("nonce-1");
    assertThat(execute(authorization, EXECUTION, BODY).state()).isEqualTo(SUCCEEDED);

    EffectResult replay = execute(authorization, new EffectId("exec-2"), BODY);

    assertThat(replay).isEqualTo(new EffectResult(SUCCEEDED, EXECUTION, null));
    assertThat(dispatches).hasValue(1);
    assertThat(world.store.getReceiptsForEffect(ORG, EXECUTION)).hasSize(1);
    assertThat(world.store.getEffect(ORG, new EffectId("exec-2"))).isEmpty();
  }

  @Test
  void aFreshAuthorizationForTheSameIdentityAndBodyReturnsTheExistingOutcome() {
    execute(world.authorization("nonce-1"), EXECUTION, BODY);

    EffectResult again = execute(world.authorization("nonce-2"), new EffectId("exec-2"), BODY);

    assertThat(again).isEqualTo(new EffectResult(SUCCEEDED, EXECUTION, null));
    assertThat(dispatches).hasValue(1);
    assertThat(world.store.hasAuthorizationNonce(ORG, "nonce-2")).isFalse();
  }

  @Test
  void reusingAnIdempotencyIdentityWithAnotherBodyIsRefusedAsDigestMismatch() {
    execute(world.authorization("nonce-1"), EXECUTION, BODY);
    byte[] other = "{\"amount\":999,\"charge\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8);
    EffectId reuse = new EffectId("exec-2");

    EffectResult result = execute(world.authorization("nonce-2", KEY, other), reuse, other);

    assertThat(result).isEqualTo(new EffectResult(REFUSED, reuse,
        AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH));
    assertThat(dispatches).hasValue(1);
    assertThat(world.store.getEffect(ORG, EXECUTION).orElseThrow().state()).isEqualTo(SUCCEEDED);
    assertThat(world.store.getReceiptsForEffect(ORG, reuse)).singleElement()
        .satisfies(r -> assertThat(r.normalizedError().message())
            .isEqualTo("authorization refused: REQUEST_DIGEST_MISMATCH"));
    assertThat(world.store.hasAuthorizationNonce(ORG, "nonce-2")).isFalse();
  }

  @Test
  void resendingARefusedAuthorizationReturnsRefusedAndRecordsNothingNew() {
    EffectAuthorization expired = world.signer.sign(EffectWorld.unsigned("nonce-1", KEY,
        Digests.requestDigest(BODY), T.minusSeconds(1)));
    EffectResult first = execute(expired, EXECUTION, BODY);
    EffectResult second = execute(expired, EXECUTION, BODY);

    assertThat(first).isEqualTo(new EffectResult(REFUSED, EXECUTION, AuthorizationRefusalReason.EXPIRED));
    assertThat(second).isEqualTo(first);
    assertThat(world.store.getReceiptsForEffect(ORG, EXECUTION)).hasSize(1);
    assertThat(world.store.getEffectHistory(ORG, EXECUTION)).hasSize(2);

    // a valid authorization for the same identity is not blocked by the refusal
    EffectResult valid = execute(world.authorization("nonce-2"), new EffectId("exec-2"), BODY);
    assertThat(valid.state()).isEqualTo(SUCCEEDED);
    // and a refusal under an id that names another effect records nothing and returns no id
    EffectResult clash = execute(expired, new EffectId("exec-2"), BODY);
    assertThat(clash).isEqualTo(new EffectResult(REFUSED, null, AuthorizationRefusalReason.EXPIRED));
    assertThat(world.store.getEffect(ORG, new EffectId("exec-2")).orElseThrow().state()).isEqualTo(SUCCEEDED);
  }

  @Test
  void everyAuthenticatedRefusalIsPersistedWithoutDispatchOrNonceAndUnauthenticatedOnesAreOnlyCounted() {
    record Case(AuthorizationRefusalReason reason, UnaryOperator<EffectAuthorization> change, boolean resign) {}
    List<Case> cases = List.of(
        new Case(AuthorizationRefusalReason.ORGANIZATION_MISMATCH,
            a -> with(a, new OrganizationId("org-2"), a.connectionId(), a.connectorRevision(), a.operationId(),
                a.argumentDigest(), a.audience(), a.issuer(), a.issuedAt(), a.expiresAt()), true),
        new Case(AuthorizationRefusalReason.CONNECTION_MISMATCH,
            a -> with(a, a.organizationId(), new ConnectionId("conn-9"), a.connectorRevision(), a.operationId(),
                a.argumentDigest(), a.audience(), a.issuer(), a.issuedAt(), a.expiresAt()), true),
        new Case(AuthorizationRefusalReason.CONNECTOR_REVISION_MISMATCH,
            a -> with(a, a.organizationId(), a.connectionId(), new ConnectorRevisionId("r-9"), a.operationId(),
                a.argumentDigest(), a.audience(), a.issuer(), a.issuedAt(), a.expiresAt()), true),
        new Case(AuthorizationRefusalReason.OPERATION_MISMATCH,
            a -> with(a, a.organizationId(), a.connectionId(), a.connectorRevision(), LIST_FILES,
                a.argumentDigest(), a.audience(), a.issuer(), a.issuedAt(), a.expiresAt()), true),
        new Case(AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH,
            a -> with(a, a.organizationId(), a.connectionId(), a.connectorRevision(), a.operationId(),
                Digests.requestDigest("{}".getBytes(StandardCharsets.UTF_8)), a.audience(), a.issuer(),
                a.issuedAt(), a.expiresAt()), true),
        new Case(AuthorizationRefusalReason.AUDIENCE_MISMATCH,
            a -> with(a, a.organizationId(), a.connectionId(), a.connectorRevision(), a.operationId(),
                a.argumentDigest(), "someone-else", a.issuer(), a.issuedAt(), a.expiresAt()), true),
        new Case(AuthorizationRefusalReason.ISSUER_UNTRUSTED,
            a -> with(a, a.organizationId(), a.connectionId(), a.connectorRevision(), a.operationId(),
                a.argumentDigest(), a.audience(), "mallory", a.issuedAt(), a.expiresAt()), false),
        new Case(AuthorizationRefusalReason.EXPIRED,
            a -> with(a, a.organizationId(), a.connectionId(), a.connectorRevision(), a.operationId(),
                a.argumentDigest(), a.audience(), a.issuer(), T.minusSeconds(60), T), true),
        new Case(AuthorizationRefusalReason.NOT_YET_VALID,
            a -> with(a, a.organizationId(), a.connectionId(), a.connectorRevision(), a.operationId(),
                a.argumentDigest(), a.audience(), a.issuer(), T.plusSeconds(120), T.plusSeconds(600)), true),
        new Case(AuthorizationRefusalReason.SIGNATURE_UNVERIFIABLE,
            a -> a.withSignature("AAAA" + a.signature().substring(4)), false),
        new Case(AuthorizationRefusalReason.REPLAYED, a -> a, true));
    world.store.recordAuthorizationNonce(ORG, "nonce-replayed", T);

    int i = 0;
    for (Case c : cases) {
      String nonce = c.reason() == AuthorizationRefusalReason.REPLAYED ? "nonce-replayed" : "nonce-" + i;
      EffectAuthorization base = world.authorization(nonce, new IdempotencyKey("key-" + i), BODY);
      EffectAuthorization changed = c.change().apply(base);
      EffectAuthorization sent = c.resign() ? world.signer.sign(changed) : changed;
      EffectId id = new EffectId("refused-" + i++);

      EffectResult result = execute(sent, id, BODY);

      if (!c.resign()) {
        // an untrusted issuer or a forged signature: answered and counted, never stored
        assertThat(result).as(c.reason().name()).isEqualTo(new EffectResult(REFUSED, null, c.reason()));
        assertThat(world.store.getEffect(ORG, id)).as(c.reason().name()).isEmpty();
        assertThat(world.store.getReceiptsForEffect(ORG, id)).isEmpty();
        continue;
      }
      assertThat(result).as(c.reason().name()).isEqualTo(new EffectResult(REFUSED, id, c.reason()));
      assertThat(world.store.getReceiptsForEffect(ORG, id)).singleElement()
          .satisfies(r -> assertThat(r.normalizedError()).isEqualTo(new NormalizedError(
              NormalizedErrorCode.REQUEST_REFUSED, "authorization refused: " + c.reason().name())));
      if (c.reason() != AuthorizationRefusalReason.REPLAYED) {
        assertThat(world.store.hasAuthorizationNonce(ORG, nonce)).as(c.reason().name()).isFalse();
      }
    }
    assertThat(dispatches).hasValue(0);
    assertThat(orchestrator.unauthenticatedRefusals()).containsOnly(
        Map.entry(AuthorizationRefusalReason.ISSUER_UNTRUSTED, 1L),
        Map.entry(AuthorizationRefusalReason.SIGNATURE_UNVERIFIABLE, 1L));
  }

  @Test
  void unauthenticatedInputNeverGrowsTheStoreWhateverItsFirstFailingCheck() throws Exception {
    EffectAuthorization valid = world.authorization("nonce-flood");
    EffectAuthorization forged = valid.withSignature("AAAA" + valid.signature().substring(4));
    // a forged authorization that also fails an earlier check (here the organization) is still unauthenticated
    EffectAuthorization forgedOtherOrg = with(valid, new OrganizationId("org-2"), valid.connectionId(),
        valid.connectorRevision(), valid.operationId(), valid.argumentDigest(), valid.audience(), valid.issuer(),
        valid.issuedAt(), valid.expiresAt());
    EffectAuthorization untrusted = with(valid, ORG, valid.connectionId(), valid.connectorRevision(),
        valid.operationId(), valid.argumentDigest(), valid.audience(), "mallory", valid.issuedAt(), valid.expiresAt());
    long sizeBefore = databaseBytes();
    for (int i = 0; i < 300; i++) {
      EffectAuthorization sent = i % 3 == 0 ? forged : i % 3 == 1 ? forgedOtherOrg : untrusted;
      assertThat(execute(sent, new EffectId("flood-" + i), BODY).effectId()).isNull();
    }
    for (int i = 0; i < 300; i++) {
      assertThat(world.store.getEffect(ORG, new EffectId("flood-" + i))).isEmpty();
    }
    assertThat(world.store.effectCountsByState().values()).containsOnly(0L);
    assertThat(databaseBytes()).isEqualTo(sizeBefore);
    assertThat(orchestrator.unauthenticatedRefusals()).containsOnly(
        Map.entry(AuthorizationRefusalReason.SIGNATURE_UNVERIFIABLE, 100L),
        Map.entry(AuthorizationRefusalReason.ORGANIZATION_MISMATCH, 100L),
        Map.entry(AuthorizationRefusalReason.ISSUER_UNTRUSTED, 100L));
    assertThat(dispatches).hasValue(0);

    // a validly signed authorization refused for the organization keeps its audit row
    EffectAuthorization signedOtherOrg = world.signer.sign(forgedOtherOrg);
    EffectId audited = new EffectId("audited");
    assertThat(execute(signedOtherOrg, audited, BODY)).isEqualTo(
        new EffectResult(REFUSED, audited, AuthorizationRefusalReason.ORGANIZATION_MISMATCH));
    assertThat(world.store.getReceiptsForEffect(ORG, audited)).singleElement();
  }

  private long databaseBytes() throws java.io.IOException {
    long total = 0;
    for (String suffix : List.of("", "-wal")) {
      Path file = world.file.resolveSibling(world.file.getFileName() + suffix);
      total += java.nio.file.Files.exists(file) ? java.nio.file.Files.size(file) : 0;
    }
    return total;
  }

  private static EffectAuthorization with(EffectAuthorization a, OrganizationId org, ConnectionId connection,
      ConnectorRevisionId revision, OperationId operation, String digest, String audience, String issuer,
      java.time.Instant issuedAt, java.time.Instant expiresAt) {
    return new EffectAuthorization(AUTHORIZATION, org, a.seatId(), a.runtimeBindingId(), a.packetId(), a.attemptId(),
        connection, revision, operation, digest, a.idempotencyKey(), a.approvalRefs(), issuedAt, expiresAt, a.nonce(),
        audience, issuer, a.signature());
  }

  @Test
  void preflightChecksRunInTheReferenceOrderAndPersistNothing() {
    EffectAuthorization authorization = world.authorization("nonce-1");
    // connection missing
    world.store.saveConnection(ORG, connection(ConnectionStatus.REVOKED, REVISION));
    assertPreflight(authorization, BODY, PreflightCode.CONNECTION_NOT_ACTIVE, "connection is not active in organization");
    // pinned to another revision
    world.store.saveConnection(ORG, connection(ConnectionStatus.ACTIVE, new ConnectorRevisionId("stripe-r2")));
    assertPreflight(authorization, BODY, PreflightCode.CONNECTION_REVISION_MISMATCH,
        "connection revision does not match authorization");
    // too large (limit 65 536 bytes)
    world.store.saveConnection(ORG, ContractFixtures.connection());
    byte[] large = ("{\"amount\":\"" + "9".repeat(70_000) + "\"}").getBytes(StandardCharsets.UTF_8);
    assertPreflight(world.authorization("nonce-1", KEY, large), large, PreflightCode.REQUEST_TOO_LARGE,
        "request exceeds connector revision size limit");
    // not exposed
    world.store.saveConnection(ORG, new Connection(CONNECTION, ORG, ContractFixtures.CONNECTOR, REVISION, "default-app",
        "acct_123", List.of("folder-a"), List.of("refunds:write"), List.of(LIST_FILES),
        new SecretRef(ContractFixtures.SECRET_HANDLE), ConnectionStatus.ACTIVE, ConnectionHealth.HEALTHY, T, null,
        null));
    assertPreflight(authorization, BODY, PreflightCode.OPERATION_NOT_EXPOSED, "business operation is not exposed");
    // read operations belong to the read orchestrator
    world.store.saveConnection(ORG, ContractFixtures.connection());
    byte[] read = "{\"folder\":\"folder-a\"}".getBytes(StandardCharsets.UTF_8);
    EffectAuthorization readAuthorization = world.signer.sign(with(world.authorization("nonce-1", KEY, read),
        ORG, CONNECTION, REVISION, LIST_FILES, Digests.requestDigest(read), EffectWorld.AUDIENCE, EffectWorld.ISSUER,
        T, T.plusSeconds(300)));
    assertThatThrownBy(() -> orchestrator.execute(ORG, CONNECTION, REVISION, LIST_FILES, readAuthorization, EXECUTION,
        read, confirming(), noReconciliation()))
        .isInstanceOf(EffectPreflightException.class)
        .hasMessage("read-only operations do not use effect orchestration");

    assertThat(world.store.getEffect(ORG, EXECUTION)).isEmpty();
    assertThat(world.store.hasAuthorizationNonce(ORG, "nonce-1")).isFalse();
    assertThat(dispatches).hasValue(0);
  }

  @Test
  void aReplayedNonceIsRefusedReplayedBeforeAnyPreflightRejection() {
    world.store.recordAuthorizationNonce(ORG, "nonce-used", T);
    world.store.saveConnection(ORG, connection(ConnectionStatus.REVOKED, REVISION));
    EffectId id = new EffectId("replayed-revoked");

    EffectResult result = execute(world.authorization("nonce-used", new IdempotencyKey("key-r"), BODY), id,
        BODY);

    // the nonce is the verifier's last check and comes before every preflight check, as when it was looked up first
    assertThat(result).isEqualTo(new EffectResult(REFUSED, id, AuthorizationRefusalReason.REPLAYED));
    assertThat(world.store.getReceiptsForEffect(ORG, id)).singleElement()
        .satisfies(r -> assertThat(r.normalizedError().message()).isEqualTo("authorization refused: REPLAYED"));
    assertThat(dispatches).hasValue(0);
  }

  @Test
  void anAuthorizedEffectLooksItsNonceUpOnlyWhereNoClaimAnswers() {
    AtomicInteger lookups = new AtomicInteger();
    EffectStore counting = countingNonceLookups(world.store, lookups);
    EffectOrchestrator o = EffectOrchestrator.builder(counting, world.verifier).clock(EffectWorld.fixedClock()).build();

    // the claim takes the nonce itself: no lookup before it
    assertThat(o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"), EXECUTION, BODY,
        confirming(), noReconciliation()).state()).isEqualTo(SUCCEEDED);
    assertThat(lookups).hasValue(0);
    // the idempotent replay is answered by the claim (the existing effect), still without a lookup
    assertThat(o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"),
        new EffectId("exec-again"), BODY, confirming(), noReconciliation()))
        .isEqualTo(new EffectResult(SUCCEEDED, EXECUTION, null));
    assertThat(lookups).hasValue(0);
    // a nonce taken by another identity: the claim refuses it with no effect to return, one lookup tells REPLAYED
    EffectId other = new EffectId("exec-other-identity");
    assertThat(o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1", new IdempotencyKey("key-2"), BODY), other, BODY, confirming(),
        noReconciliation())).isEqualTo(new EffectResult(REFUSED, other, AuthorizationRefusalReason.REPLAYED));
    assertThat(lookups).hasValue(1);
    // a preflight rejection with a free nonce: one lookup, then the rejection itself
    world.store.saveConnection(ORG, connection(ConnectionStatus.REVOKED, REVISION));
    assertThatThrownBy(() -> o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-3"),
        new EffectId("exec-3"), BODY, confirming(), noReconciliation()))
        .isInstanceOf(EffectPreflightException.class).hasMessage("connection is not active in organization");
    assertThat(lookups).hasValue(2);
    assertThat(dispatches).hasValue(1);
  }

  @Test
  void anEffectIsCheckedAgainstTheConnectionLastReadAndItsClaimRefusesOneThatChangedSince() {
    AtomicInteger reads = new AtomicInteger();
    EffectStore counting = InterceptedEffectStore.of(world.store, method -> {
      if (method.equals("getConnection")) {
        reads.incrementAndGet();
      }
    });
    EffectOrchestrator o = EffectOrchestrator.builder(counting, world.verifier).clock(EffectWorld.fixedClock()).build();

    assertThat(o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"), EXECUTION, BODY,
        confirming(), noReconciliation()).state()).isEqualTo(SUCCEEDED);
    assertThat(reads).as("the first effect reads the connection").hasValue(1);
    assertThat(o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-2", new IdempotencyKey("key-2"), BODY), new EffectId("exec-2"), BODY,
        confirming(), noReconciliation()).state()).isEqualTo(SUCCEEDED);
    assertThat(reads).as("the next one claims with it, no read").hasValue(1);

    // revoked by someone else (another instance): the claim finds it changed, writes nothing, the fresh read refuses
    world.store.saveConnection(ORG, connection(ConnectionStatus.REVOKED, REVISION));
    EffectId third = new EffectId("exec-3");
    assertThatThrownBy(() -> o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-3", new IdempotencyKey("key-3"), BODY), third, BODY, confirming(),
        noReconciliation()))
        .isInstanceOf(EffectPreflightException.class).hasMessage("connection is not active in organization");
    assertThat(reads).hasValue(2);
    assertThat(world.store.getEffect(ORG, third)).isEmpty();
    assertThat(world.store.hasAuthorizationNonce(ORG, "nonce-3")).isFalse();
    assertThat(dispatches).hasValue(2);

    // active again: a rejection is never remembered, so the next effect reads and passes
    world.store.saveConnection(ORG, connection(ConnectionStatus.ACTIVE, REVISION));
    assertThat(o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-4", new IdempotencyKey("key-4"), BODY), new EffectId("exec-4"), BODY,
        confirming(), noReconciliation()).state()).isEqualTo(SUCCEEDED);
    assertThat(reads).hasValue(3);
    assertThat(dispatches).hasValue(3);
  }

  @Test
  void aConnectionThatKeepsChangingUnderTheClaimFailsTheEffectAfterThreeReadsWithNothingWritten() {
    AtomicInteger reads = new AtomicInteger();
    EffectStore changing = InterceptedEffectStore.of(world.store, method -> {
      if (method.equals("getConnection")) {
        reads.incrementAndGet();
      }
      if (method.equals("claimEffect")) {
        throw new ConnectionChangedException();
      }
    });
    EffectOrchestrator o = EffectOrchestrator.builder(changing, world.verifier).clock(EffectWorld.fixedClock())
        .build();

    assertThatThrownBy(() -> o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"),
        EXECUTION, BODY, confirming(), noReconciliation()))
        .isInstanceOf(ConnectionChangedException.class).hasMessage("the connection changed since it was checked");
    assertThat(reads).hasValue(3);
    assertThat(world.store.getEffect(ORG, EXECUTION)).isEmpty();
    assertThat(dispatches).hasValue(0);
  }

  @Test
  void aClaimThatFailsWithAFreeNonceFailsAsTheStoreSaidAndALookupThatFailsTooChangesNothing() {
    AtomicInteger lookups = new AtomicInteger();
    EffectStore failing = InterceptedEffectStore.of(world.store, method -> {
      if (method.equals("claimEffect")) {
        throw new ConnectionStoreException("claiming the execution failed");
      }
      if (method.equals("hasAuthorizationNonce") && lookups.incrementAndGet() > 1) {
        throw new ConnectionStoreException("reading the nonce failed");
      }
    });
    EffectOrchestrator o = EffectOrchestrator.builder(failing, world.verifier).clock(EffectWorld.fixedClock()).build();

    // the nonce is free: the claim's own failure, unchanged
    assertThatThrownBy(() -> o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"),
        EXECUTION, BODY, confirming(), noReconciliation()))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("claiming the execution failed")
        .satisfies(e -> assertThat(e.getSuppressed()).isEmpty());
    // the lookup fails as well: still the claim's failure, the lookup's suppressed in it
    assertThatThrownBy(() -> o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-2"),
        EXECUTION, BODY, confirming(), noReconciliation()))
        .isInstanceOf(ConnectionStoreException.class).hasMessage("claiming the execution failed")
        .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
            .satisfies(s -> assertThat(s).hasMessage("reading the nonce failed")));
    assertThat(lookups).hasValue(2);
    assertThat(dispatches).hasValue(0);
  }

  /** {@code store}, counting the calls of {@link EffectStore#hasAuthorizationNonce}. */
  private static EffectStore countingNonceLookups(EffectStore store, AtomicInteger lookups) {
    return InterceptedEffectStore.of(store, method -> {
      if (method.equals("hasAuthorizationNonce")) {
        lookups.incrementAndGet();
      }
    });
  }

  @Test
  void anUnavailableRevisionIsAPreflightError(@TempDir Path other) {
    try (EffectWorld empty = new EffectWorld(other)) {
      Connection pinned = connection(ConnectionStatus.ACTIVE, new ConnectorRevisionId("stripe-r2"));
      empty.store.saveConnection(ORG, pinned);
      ConnectorRevisionId r2 = new ConnectorRevisionId("stripe-r2");
      EffectAuthorization authorization = empty.signer.sign(with(empty.authorization("n1"), ORG, CONNECTION, r2,
          CREATE_REFUND, Digests.requestDigest(BODY), EffectWorld.AUDIENCE, EffectWorld.ISSUER, T,
          T.plusSeconds(300)));
      EffectOrchestrator o = EffectOrchestrator.builder(empty.store, empty.verifier)
          .clock(EffectWorld.fixedClock()).build();
      assertThatThrownBy(() -> o.execute(ORG, CONNECTION, r2, CREATE_REFUND, authorization, EXECUTION, BODY,
          confirming(), noReconciliation()))
          .isInstanceOf(EffectPreflightException.class).hasMessage("connector revision is unavailable");
    }
  }

  private void assertPreflight(EffectAuthorization authorization, byte[] body, PreflightCode code, String message) {
    assertThatThrownBy(() -> orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization,
        EXECUTION, body, confirming(), noReconciliation()))
        .isInstanceOf(EffectPreflightException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((EffectPreflightException) e).code()).isEqualTo(code));
  }

  private static Connection connection(ConnectionStatus status, ConnectorRevisionId revision) {
    return new Connection(CONNECTION, ORG, ContractFixtures.CONNECTOR, revision, "default-app", "acct_123",
        List.of("folder-a"), List.of("refunds:write"), List.of(CREATE_REFUND, LIST_FILES),
        new SecretRef(ContractFixtures.SECRET_HANDLE), status, ConnectionHealth.HEALTHY, T, null,
        status == ConnectionStatus.REVOKED ? T : null);
  }

  @Test
  void aListenerThrowingAnErrorNeverChangesTheEffectsPath() {
    AtomicInteger dispatched = new AtomicInteger();
    EffectOrchestrator listening = EffectOrchestrator.builder(world.store, world.verifier)
        .clock(EffectWorld.fixedClock()).listener(new EffectListener() {
          @Override
          public void transitionRecorded(EffectRecord effect, EffectState previousState) {
            throw new StackOverflowError("listener blew its stack");
          }

          @Override
          public void receiptRecorded(EffectReceipt receipt) {
            throw new AssertionError("listener assertion");
          }
        }).build();

    EffectResult result = listening.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1", KEY, BODY), EXECUTION, BODY, request -> {
          dispatched.incrementAndGet();
          return EffectDispatchResult.confirmed(CONFIRMATION);
        }, request -> {
          throw new AssertionError("no reconciliation after a confirmed dispatch");
        });

    assertThat(result.state()).isEqualTo(SUCCEEDED);
    assertThat(dispatched).hasValue(1);
  }

  @Test
  void canariesFromTheBodyTheDispatcherAndASecretNeverReachTheDatabaseFile() throws Exception {
    String bodyCanary = "BODY-CANARY-7f3a9c";
    String providerCanary = "PROVIDER-CANARY-51d2e8";
    String secretCanary = "SECRET-CANARY-c0ffee";
    byte[] body = ("{\"amount\":100,\"charge\":\"" + bodyCanary + "\"}").getBytes(StandardCharsets.UTF_8);
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    EffectOrchestrator listening = EffectOrchestrator.builder(world.store, world.verifier)
        .clock(EffectWorld.fixedClock()).listener(EffectWorld.recordingInto(seen)).build();

    EffectResult result = listening.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1", KEY, body), EXECUTION, body, request -> {
          throw new IllegalStateException(providerCanary + " using " + secretCanary);
        }, request -> {
          throw new IllegalStateException(providerCanary + " " + secretCanary);
        });

    assertThat(result.state()).isEqualTo(AMBIGUOUS);
    assertThat(String.join("\n", seen)).doesNotContain(bodyCanary, providerCanary, secretCanary);
    assertNoCanaryInDatabaseFiles(bodyCanary, providerCanary, secretCanary);
    world.store.close();
    assertNoCanaryInDatabaseFiles(bodyCanary, providerCanary, secretCanary);
  }

  private void assertNoCanaryInDatabaseFiles(String... canaries) throws Exception {
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(temp)) {
      for (Path file : files.toList()) {
        String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        all.append(bytes);
        for (String canary : canaries) {
          assertThat(bytes).as(file.getFileName() + " must not contain " + canary).doesNotContain(canary);
        }
      }
    }
    // the records themselves are plain text in those bytes, so a leaked canary would have been found
    assertThat(all.toString()).contains("dispatch started but positive outcome is unknown",
        ContractFixtures.SECRET_HANDLE);
  }

  @Test
  void anOutcomeArrivingAfterRecoveryMovedTheEffectOnDoesNotOverwriteIt() {
    EffectRecovery recovery = EffectRecovery.builder(world.store,
            EffectReconcilers.always(request -> ReconciliationResult.unresolved("e".repeat(64))))
        .clock(Clock.fixed(T.plus(Duration.ofHours(1)), ZoneOffset.UTC)).dispatchStaleAfter(Duration.ofMillis(1))
        .build();

    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1"), EXECUTION, BODY, request -> {
          dispatches.incrementAndGet();
          Thread.sleep(5); // older than dispatch-stale-after by the database's clock
          assertThat(recovery.recoverOnce().markedAmbiguous()).isEqualTo(1);
          return EffectDispatchResult.confirmed(CONFIRMATION);
        }, noReconciliation());

    assertThat(result).isEqualTo(new EffectResult(AMBIGUOUS, EXECUTION, null));
    assertThat(world.store.getReceiptsForEffect(ORG, EXECUTION)).extracting(EffectReceipt::finalState)
        .containsExactly(AMBIGUOUS, AMBIGUOUS);
    assertThat(dispatches).hasValue(1);
  }

  @Test
  void anInterruptedDispatcherIsRecordedAmbiguousAndLeftToRecovery() {
    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1"), EXECUTION, BODY, request -> {
          throw new InterruptedException();
        }, noReconciliation());

    assertThat(Thread.interrupted()).isTrue();
    assertThat(result).isEqualTo(new EffectResult(AMBIGUOUS, EXECUTION, null));
    assertThat(world.store.getReceiptsForEffect(ORG, EXECUTION)).singleElement()
        .extracting(EffectReceipt::finalState).isEqualTo(AMBIGUOUS);
  }

  @Test
  void aFailingListenerNeverChangesTheOutcome() {
    EffectOrchestrator o = EffectOrchestrator.builder(world.store, world.verifier).clock(EffectWorld.fixedClock())
        .listener(new EffectListener() {
          @Override
          public void transitionRecorded(EffectRecord effect, EffectState previousState) {
            throw new IllegalStateException("listener bug");
          }
        }).build();

    EffectResult result = o.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("n1"),
        EXECUTION, BODY, confirming(), noReconciliation());

    assertThat(result.state()).isEqualTo(SUCCEEDED);
  }
}
