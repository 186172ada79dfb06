package io.zeocore.connections.store;

import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static io.zeocore.connections.contract.EffectState.AMBIGUOUS;
import static io.zeocore.connections.contract.EffectState.DISPATCH_STARTED;
import static io.zeocore.connections.contract.EffectState.REFUSED;
import static io.zeocore.connections.contract.EffectState.SUCCEEDED;
import static io.zeocore.connections.store.Sleeps.sleepQuietly;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.EffectWorld;
import io.zeocore.connections.effect.ReconciliationResult;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The effect orchestrator and recovery end to end on PostgreSQL, with two store instances on two data sources
 * standing for two application instances sharing one database: races, replays and recovery across instances. (The
 * scenario table itself runs on PostgreSQL in {@code PostgresEffectOrchestratorGoldenTest}.) The clock is fixed at {@code T}: verification
 * {@code T}, {@code CREATED T+1µs} … {@code DISPATCH_STARTED T+4µs}, outcome or ambiguity {@code T+5µs}, resolution
 * {@code T+6µs}.
 */
class PostgresEffectOrchestratorTest {

  static final String CONFIRMATION = "c".repeat(64);
  static final String EVIDENCE = "e".repeat(64);
  static final KeyPair KEYS = Ed25519Keys.generate();

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  final AuthorizationSigner signer = new AuthorizationSigner(EffectWorld.ISSUER, KEYS.getPrivate());
  final ExactAuthorizationVerifier verifier = EffectWorld.verifier(KEYS.getPublic());
  final AtomicInteger dispatches = new AtomicInteger();
  final AtomicInteger reconciliations = new AtomicInteger();
  JdbcConnectionStore instanceA;
  JdbcConnectionStore instanceB;

  @BeforeEach
  void twoApplicationInstances() {
    instanceA = store();
    instanceB = store();
    instanceA.saveConnectorRevision(ORG, ContractFixtures.revision());
    instanceA.saveConnection(ORG, ContractFixtures.connection());
  }

  @AfterEach
  void closeInstances() {
    if (instanceA != null) {
      instanceA.close();
      instanceB.close();
    }
  }

  JdbcConnectionStore store() {
    return JdbcConnectionStore.builder().dataSource(PostgresTestSchema.newDataSource(), Dialect.POSTGRESQL)
        .schema(schema.name()).evidenceIds(new SequentialUuids()).migrate(false).build();
  }

  EffectOrchestrator orchestrator(JdbcConnectionStore store) {
    return EffectOrchestrator.builder(store, verifier).clock(EffectWorld.fixedClock()).build();
  }

  EffectAuthorization authorization(String nonce, IdempotencyKey key) {
    return signer.sign(EffectWorld.unsigned(nonce, key, Digests.requestDigest(BODY), T.plusSeconds(300)));
  }

  EffectResult run(JdbcConnectionStore store, EffectAuthorization authorization, EffectId id,
      EffectDispatcher dispatcher, EffectReconciler reconciler) {
    return orchestrator(store).execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization, id, BODY, request -> {
      dispatches.incrementAndGet();
      return dispatcher.dispatch(request);
    }, request -> {
      reconciliations.incrementAndGet();
      return reconciler.reconcile(request);
    });
  }

  static EffectReconciler unreachable() {
    return request -> {
      throw new AssertionError("the reconciler must not be called");
    };
  }

  static Instant t(int micros) {
    return T.plus(micros, ChronoUnit.MICROS);
  }

  @Test
  void twoInstancesRacingTheSameAuthorizationDispatchOnce() throws Exception {
    EffectAuthorization authorization = authorization("nonce-race", KEY);
    EffectDispatcher confirming = request -> EffectDispatchResult.confirmed(CONFIRMATION);
    List<EffectResult> results;
    // a third transaction holds the nonce: both instances pass verification and block on the same key in their claims
    try (Connection blocker = schema.connect()) {
      blocker.setAutoCommit(false);
      try (Statement statement = blocker.createStatement()) {
        statement.execute("INSERT INTO " + schema.name() + ".authorization_nonces VALUES ('org-1', 'nonce-race', 1)");
      }
      results = schema.whileBlocked(blocker, false, List.of(
          () -> run(instanceA, authorization, new EffectId("exec-a"), confirming, unreachable()),
          () -> run(instanceB, authorization, new EffectId("exec-b"), confirming, unreachable())));
    }

    assertThat(dispatches).hasValue(1);
    EffectId winner = results.get(0).effectId();
    assertThat(results).extracting(EffectResult::effectId).containsOnly(winner);
    assertThat(results).extracting(EffectResult::state).contains(SUCCEEDED)
        .allMatch(state -> state == SUCCEEDED || state == DISPATCH_STARTED);
    assertThat(instanceA.getEffect(ORG, winner).orElseThrow().state()).isEqualTo(SUCCEEDED);
    assertThat(instanceA.effectCountsByState().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
  }

  @Test
  void aReplayIsAnsweredWithTheOutcomeAndAReusedNonceIsRefused() {
    EffectAuthorization authorization = authorization("nonce-1", KEY);
    EffectDispatcher confirming = request -> EffectDispatchResult.confirmed(CONFIRMATION);
    assertThat(run(instanceA, authorization, EXECUTION, confirming, unreachable()).state()).isEqualTo(SUCCEEDED);

    // the same authorization sent to the other instance: the stored outcome, no second dispatch
    EffectResult replay = run(instanceB, authorization, new EffectId("exec-2"), confirming,
        unreachable());
    assertThat(replay).isEqualTo(new EffectResult(SUCCEEDED, EXECUTION, null));

    // the nonce signed into an authorization for another idempotency identity: refused and recorded, not dispatched
    EffectId reused = new EffectId("exec-3");
    EffectResult refused = run(instanceB, authorization("nonce-1", new IdempotencyKey("idem-2")), reused,
        confirming, unreachable());
    assertThat(refused).isEqualTo(new EffectResult(REFUSED, reused, AuthorizationRefusalReason.REPLAYED));
    assertThat(instanceA.getReceiptsForEffect(ORG, reused)).singleElement()
        .satisfies(r -> assertThat(r.normalizedError().message()).isEqualTo("authorization refused: REPLAYED"));
    assertThat(dispatches).hasValue(1);
    assertThat(instanceA.getEffect(ORG, new EffectId("exec-2"))).isEmpty();
  }

  @Test
  void anotherInstanceRecoversADispatchLeftByACrashedOne() {
    List<EffectRecord> started = startedChain();
    instanceA.claimEffect(ORG, "nonce-1", started);
    EffectRecovery recovery = EffectRecovery.builder(instanceB, EffectReconcilers.always(request -> {
      reconciliations.incrementAndGet();
      return ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION);
    })).clock(() -> T.plus(Duration.ofMinutes(6))).dispatchStaleAfter(Duration.ofMillis(50)).build();

    // staleness is the database's clock: wait until the dispatch is 50 ms old by it
    sleepQuietly(80);
    assertThat(recovery.recoverOnce()).isEqualTo(new EffectRecovery.Sweep(1, 1, 1, 0, 0, 0, 0));

    assertThat(instanceA.getEffect(ORG, EXECUTION).orElseThrow().state()).isEqualTo(SUCCEEDED);
    List<EffectReceipt> receipts = instanceA.getReceiptsForEffect(ORG, EXECUTION);
    assertThat(receipts).extracting(EffectReceipt::finalState).containsExactly(AMBIGUOUS, SUCCEEDED);
    assertThat(receipts.get(1).resolvesAmbiguousRecordedAt()).isEqualTo(receipts.get(0).recordedAt());
    assertThat(reconciliations).hasValue(1);
    assertThat(recovery.recoverOnce().examined()).isZero();
  }

  @Test
  void twoInstancesSweepingTheSameStaleDispatchAtOnceRecoverItOnce() throws Exception {
    instanceA.claimEffect(ORG, "nonce-1", startedChain());
    List<EffectRecovery> recoveries = new ArrayList<>();
    for (JdbcConnectionStore instance : List.of(instanceA, instanceB)) {
      recoveries.add(EffectRecovery.builder(instance, EffectReconcilers.always(request -> {
        reconciliations.incrementAndGet();
        Thread.sleep(100); // long enough for the other sweeper to find the effect leased
        return ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION);
      })).clock(() -> T.plus(Duration.ofMinutes(6))).dispatchStaleAfter(Duration.ofMillis(1)).build());
    }
    sleepQuietly(10);
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
    List<EffectRecovery.Sweep> sweeps = new ArrayList<>();
    try {
      var a = threads.submit(recoveries.get(0)::recoverOnce);
      var b = threads.submit(recoveries.get(1)::recoverOnce);
      sweeps.add(a.get(20, java.util.concurrent.TimeUnit.SECONDS));
      sweeps.add(b.get(20, java.util.concurrent.TimeUnit.SECONDS));
    } finally {
      threads.shutdownNow();
    }

    // the recovery lease: one sweeper reconciles, the other skips the effect (or finds nothing left to do)
    assertThat(sweeps.stream().mapToInt(EffectRecovery.Sweep::markedAmbiguous).sum()).isEqualTo(1);
    assertThat(sweeps.stream().mapToInt(EffectRecovery.Sweep::failures).sum()).isZero();
    assertThat(reconciliations).hasValue(1);
    assertThat(instanceA.getReceiptsForEffect(ORG, EXECUTION)).extracting(EffectReceipt::finalState)
        .containsExactly(AMBIGUOUS, SUCCEEDED);
  }

  /** CREATED at T+1µs through DISPATCH_STARTED at T+4µs, as a process that died inside its dispatcher left it. */
  static List<EffectRecord> startedChain() {
    EffectRecord created = new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND,
        ContractFixtures.AUTHORIZATION, KEY, "sha256:" + "b".repeat(64), Digests.requestDigest(BODY),
        EffectState.CREATED, t(1), t(1), null);
    EffectRecord verified = created.transitionTo(EffectState.AUTHORIZATION_VERIFIED, t(2));
    EffectRecord prepared = verified.transitionTo(EffectState.PREPARED, t(3));
    return List.of(created, verified, prepared, prepared.transitionTo(DISPATCH_STARTED, t(4)));
  }
}
