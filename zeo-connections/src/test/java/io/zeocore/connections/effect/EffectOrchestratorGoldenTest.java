package io.zeocore.connections.effect;

import io.zeocore.connections.admission.PreflightCode;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static io.zeocore.connections.contract.EffectState.AMBIGUOUS;
import static io.zeocore.connections.contract.EffectState.AUTHORIZATION_VERIFIED;
import static io.zeocore.connections.contract.EffectState.CREATED;
import static io.zeocore.connections.contract.EffectState.DISPATCH_STARTED;
import static io.zeocore.connections.contract.EffectState.FAILED_SAFE;
import static io.zeocore.connections.contract.EffectState.PREPARED;
import static io.zeocore.connections.contract.EffectState.REFUSED;
import static io.zeocore.connections.contract.EffectState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.connections.store.SequentialUuids;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario table of the reference (history states, receipts, results), with a clock fixed at {@code T} so that
 * every instant is exact: verification {@code T}, {@code CREATED T+1µs} … {@code DISPATCH_STARTED T+4µs}, outcome or
 * ambiguity {@code T+5µs}, resolution or attempt {@code T+6µs}.
 */
class EffectOrchestratorGoldenTest {

  static final String CONFIRMATION = "c".repeat(64);
  static final String EVIDENCE = "e".repeat(64);
  static final NormalizedError NO_EFFECT = new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "card declined");

  @TempDir
  Path temp;

  EffectWorld world;
  EffectOrchestrator orchestrator;
  final List<String> events = new ArrayList<>();
  final AtomicInteger dispatches = new AtomicInteger();
  final AtomicInteger reconciliations = new AtomicInteger();

  /** The world the orchestrator writes to: a SQLite file here. */
  EffectWorld openWorld() {
    return new EffectWorld(temp);
  }

  /** The store the assertions read: the orchestrator's own here. */
  JdbcConnectionStore reader() {
    return world.store;
  }

  @BeforeEach
  void setUp() {
    world = openWorld();
    orchestrator = EffectOrchestrator.builder(world.store, world.verifier).clock(EffectWorld.fixedClock())
        .listener(new EffectListener() {
          @Override
          public void transitionRecorded(EffectRecord effect, EffectState previousState) {
            events.add(previousState + "->" + effect.state() + "@" + micros(effect.updatedAt()));
          }

          @Override
          public void receiptRecorded(EffectReceipt receipt) {
            events.add("receipt " + receipt.finalState() + "@" + micros(receipt.recordedAt()));
          }
        }).build();
  }

  @AfterEach
  void tearDown() {
    world.close();
  }

  static Instant t(int micros) {
    return T.plus(micros, ChronoUnit.MICROS);
  }

  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(T, instant);
  }

  EffectResult run(EffectDispatcher dispatcher, EffectReconciler reconciler) {
    return orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"), EXECUTION,
        BODY, request -> {
          dispatches.incrementAndGet();
          return dispatcher.dispatch(request);
        }, request -> {
          reconciliations.incrementAndGet();
          return reconciler.reconcile(request);
        });
  }

  List<String> history() {
    List<String> states = new ArrayList<>();
    for (EffectRecord snapshot : reader().getEffectHistory(ORG, EXECUTION)) {
      states.add(snapshot.state() + "@" + micros(snapshot.updatedAt()));
    }
    return states;
  }

  List<EffectReceipt> receipts() {
    return reader().getReceiptsForEffect(ORG, EXECUTION);
  }

  static EffectReconciler unreachable() {
    return request -> {
      throw new AssertionError("the reconciler must not be called");
    };
  }

  @Test
  void directSuccess() {
    EffectResult result = run(request -> EffectDispatchResult.confirmed(CONFIRMATION), unreachable());

    assertThat(result).isEqualTo(new EffectResult(SUCCEEDED, EXECUTION, null));
    assertThat(history()).containsExactly("CREATED@1", "AUTHORIZATION_VERIFIED@2", "PREPARED@3",
        "DISPATCH_STARTED@4", "SUCCEEDED@5");
    ConfirmationEvidenceRef ref = ConfirmationEvidenceRef.of(SequentialUuids.uuid(1));
    assertThat(receipts()).containsExactly(new EffectReceipt(EXECUTION, ORG, CONNECTION, SUCCEEDED, null, t(5),
        t(4), null, ref, null, null, null));
    assertThat(reader().getConfirmationEvidence(ORG, ref)).contains(
        new ConfirmationEvidence(ref, ORG, EXECUTION, t(5), CONFIRMATION));
    EffectRecord stored = reader().getEffect(ORG, EXECUTION).orElseThrow();
    assertThat(stored.createdAt()).isEqualTo(t(1));
    assertThat(stored.completedAt()).isEqualTo(t(5));
    assertThat(stored.authorizationDigest()).isEqualTo(Digests.authorizationDigest(world.authorization("nonce-1")));
    assertThat(stored.requestDigest()).isEqualTo(Digests.requestDigest(BODY));
    assertThat(reader().hasAuthorizationNonce(ORG, "nonce-1")).isTrue();
    assertThat(reader().effectCountsByState()).containsEntry(SUCCEEDED, 1L);
    assertThat(events).containsExactly("null->CREATED@1", "CREATED->AUTHORIZATION_VERIFIED@2",
        "AUTHORIZATION_VERIFIED->PREPARED@3", "PREPARED->DISPATCH_STARTED@4", "DISPATCH_STARTED->SUCCEEDED@5",
        "receipt SUCCEEDED@5");
    assertThat(dispatches).hasValue(1);
  }

  @Test
  void providerProvesNoEffect() {
    EffectResult result = run(request -> EffectDispatchResult.failedSafe(NO_EFFECT), unreachable());

    assertThat(result).isEqualTo(new EffectResult(FAILED_SAFE, EXECUTION, null));
    assertThat(history()).containsExactly("CREATED@1", "AUTHORIZATION_VERIFIED@2", "PREPARED@3",
        "DISPATCH_STARTED@4", "FAILED_SAFE@5");
    assertThat(receipts()).containsExactly(new EffectReceipt(EXECUTION, ORG, CONNECTION, FAILED_SAFE, NO_EFFECT,
        t(5), t(4), null, null, null, null, null));
    assertThat(reconciliations).hasValue(0);
  }

  @Test
  void throwThenReconcileConfirmed() {
    EffectResult result = run(request -> {
      throw new java.net.SocketTimeoutException("read timed out");
    }, request -> ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION));

    assertThat(result).isEqualTo(new EffectResult(SUCCEEDED, EXECUTION, null));
    assertThat(history()).containsExactly("CREATED@1", "AUTHORIZATION_VERIFIED@2", "PREPARED@3",
        "DISPATCH_STARTED@4", "AMBIGUOUS@5", "SUCCEEDED@6");
    ConfirmationEvidenceRef ref = ConfirmationEvidenceRef.of(SequentialUuids.uuid(1));
    assertThat(receipts()).containsExactly(ambiguityReceipt(),
        new EffectReceipt(EXECUTION, ORG, CONNECTION, SUCCEEDED, null, t(6), t(4), t(6), ref, EVIDENCE, t(5),
            null));
    assertThat(reader().getConfirmationEvidence(ORG, ref)).map(ConfirmationEvidence::confirmationDigest)
        .contains(CONFIRMATION);
    assertThat(dispatches).hasValue(1);
    assertThat(reconciliations).hasValue(1);
  }

  @Test
  void throwThenReconcileFailedSafe() {
    EffectResult result = run(request -> {
      throw new IllegalStateException("connection reset");
    }, request -> ReconciliationResult.failedSafe(EVIDENCE, NO_EFFECT));

    assertThat(result).isEqualTo(new EffectResult(FAILED_SAFE, EXECUTION, null));
    assertThat(history()).containsExactly("CREATED@1", "AUTHORIZATION_VERIFIED@2", "PREPARED@3",
        "DISPATCH_STARTED@4", "AMBIGUOUS@5", "FAILED_SAFE@6");
    assertThat(receipts()).containsExactly(ambiguityReceipt(),
        new EffectReceipt(EXECUTION, ORG, CONNECTION, FAILED_SAFE, NO_EFFECT, t(6), t(4), t(6), null, EVIDENCE,
            t(5), null));
  }

  @Test
  void throwThenUnresolved() {
    EffectResult result = run(request -> {
      throw new RuntimeException("boom");
    }, request -> ReconciliationResult.unresolved(EVIDENCE));

    assertThat(result).isEqualTo(new EffectResult(AMBIGUOUS, EXECUTION, null));
    assertThat(history()).containsExactly("CREATED@1", "AUTHORIZATION_VERIFIED@2", "PREPARED@3",
        "DISPATCH_STARTED@4", "AMBIGUOUS@5");
    assertThat(receipts()).containsExactly(ambiguityReceipt(), attemptReceipt(EVIDENCE,
        "reconciliation did not establish the provider effect"));
    assertThat(reader().getEffect(ORG, EXECUTION).orElseThrow().completedAt()).isNull();
  }

  @Test
  void throwThenReconcilerThrows() {
    EffectResult result = run(request -> {
      throw new RuntimeException("boom");
    }, request -> {
      throw new RuntimeException("reconciler down");
    });

    assertThat(result).isEqualTo(new EffectResult(AMBIGUOUS, EXECUTION, null));
    assertThat(receipts()).containsExactly(ambiguityReceipt(), attemptReceipt(
        "a762ee13beb81030908d9ae101aed878102db252b17be3bbbd2d5585a3aa5592", "reconciliation produced no result"));
    assertThat(Digests.sha256Hex("reconciliation-unavailable".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
        .isEqualTo(receipts().get(1).reconciliationAttemptEvidence());
  }

  @Test
  void aNullDispatchResultIsAmbiguous() {
    EffectResult result = run(request -> null, request -> ReconciliationResult.unresolved(EVIDENCE));

    assertThat(result.state()).isEqualTo(AMBIGUOUS);
    assertThat(receipts()).extracting(EffectReceipt::finalState).containsExactly(AMBIGUOUS, AMBIGUOUS);
  }

  @Test
  void dispatchNotStartedEndsFailedSafeWithoutReconciliation() {
    EffectResult result = run(request -> {
      throw new DispatchNotStartedException(NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED, "CUSTODY_NOT_FOUND");
    }, unreachable());

    assertThat(result).isEqualTo(new EffectResult(FAILED_SAFE, EXECUTION, null));
    assertThat(history()).containsExactly("CREATED@1", "AUTHORIZATION_VERIFIED@2", "PREPARED@3",
        "DISPATCH_STARTED@4", "FAILED_SAFE@5");
    assertThat(receipts()).containsExactly(new EffectReceipt(EXECUTION, ORG, CONNECTION, FAILED_SAFE,
        new NormalizedError(NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED, "dispatch did not start: CUSTODY_NOT_FOUND"),
        t(5), t(4), null, null, null, null, null));
  }

  @Test
  void aDispatchNotStartedCauseInsideAnotherExceptionStillMeansAmbiguous() {
    EffectResult result = run(request -> {
      throw new RuntimeException(new DispatchNotStartedException("CUSTODY_NOT_FOUND"));
    }, request -> ReconciliationResult.unresolved(EVIDENCE));

    assertThat(result.state()).isEqualTo(AMBIGUOUS);
  }

  @Test
  void verifierRefusalIsPersistedAsCreatedThenRefused() {
    EffectAuthorization expired = world.signer.sign(EffectWorld.unsigned("nonce-1", ContractFixtures.KEY,
        Digests.requestDigest(BODY), T));

    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, expired, EXECUTION,
        BODY, request -> {
          throw new AssertionError("no dispatch");
        }, unreachable());

    assertThat(result).isEqualTo(new EffectResult(REFUSED, EXECUTION,
        AuthorizationRefusalReason.EXPIRED));
    assertThat(history()).containsExactly("CREATED@1", "REFUSED@2");
    assertThat(receipts()).containsExactly(new EffectReceipt(EXECUTION, ORG, CONNECTION, REFUSED,
        new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "authorization refused: EXPIRED"), t(2), null, null,
        null, null, null, null));
    assertThat(reader().hasAuthorizationNonce(ORG, "nonce-1")).isFalse();
    assertThat(events).containsExactly("null->CREATED@1", "CREATED->REFUSED@2", "receipt REFUSED@2");
  }

  @Test
  void absentAuthorizationPersistsNothing() {
    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, null, EXECUTION,
        BODY, request -> {
          throw new AssertionError("no dispatch");
        }, unreachable());

    assertThat(result).isEqualTo(new EffectResult(REFUSED, null, AuthorizationRefusalReason.ABSENT));
    assertThat(reader().getEffect(ORG, EXECUTION)).isEmpty();
    assertThat(events).isEmpty();
  }

  @Test
  void aPreflightErrorPersistsNothing() {
    byte[] undeclared = "{\"amount\":1,\"memo\":\"x\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    EffectAuthorization authorization = world.authorization("nonce-1", ContractFixtures.KEY, undeclared);

    assertThatThrownBy(() -> orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization, EXECUTION,
        undeclared, request -> {
          throw new AssertionError("no dispatch");
        }, unreachable()))
        .isInstanceOf(EffectPreflightException.class)
        .hasMessage("connector admission refused execution")
        .satisfies(e -> assertThat(((EffectPreflightException) e).code()).isEqualTo(PreflightCode.ADMISSION_REFUSED));
    assertThat(reader().getEffect(ORG, EXECUTION)).isEmpty();
    assertThat(reader().hasAuthorizationNonce(ORG, "nonce-1")).isFalse();
  }

  static EffectReceipt ambiguityReceipt() {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "dispatch started but positive outcome is unknown"),
        t(5), t(4), null, null, null, null, null);
  }

  static EffectReceipt attemptReceipt(String evidence, String message) {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, message), t(6), t(4), null, null, null, null,
        evidence);
  }
}
