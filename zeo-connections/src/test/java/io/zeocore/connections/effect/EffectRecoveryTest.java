package io.zeocore.connections.effect;

import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
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
import static io.zeocore.connections.contract.EffectState.DISPATCH_STARTED;
import static io.zeocore.connections.contract.EffectState.FAILED_SAFE;
import static io.zeocore.connections.contract.EffectState.SUCCEEDED;
import static io.zeocore.connections.store.Sleeps.sleepQuietly;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EffectRecoveryTest {

  static final String CONFIRMATION = "c".repeat(64);
  static final String EVIDENCE = "e".repeat(64);

  @TempDir
  Path temp;

  EffectWorld world;
  final AtomicReference<Instant> now = new AtomicReference<>(T);

  /** The world recovery runs on: a SQLite file here. */
  EffectWorld openWorld() {
    return new EffectWorld(temp);
  }

  @BeforeEach
  void setUp() {
    world = openWorld();
  }

  @AfterEach
  void tearDown() {
    world.close();
  }

  /** Leaves the execution at DISPATCH_STARTED, as a process killed inside the dispatcher would. */
  void crashInsideDispatcher() {
    EffectOrchestrator orchestrator = EffectOrchestrator.builder(world.store, world.verifier)
        .clock(EffectWorld.fixedClock()).build();
    try {
      orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"), EXECUTION, BODY,
          request -> {
            throw new VirtualMachineErrorForTest();
          }, request -> ReconciliationResult.unresolved(EVIDENCE));
    } catch (VirtualMachineErrorForTest expected) {
      // the "process" died inside the dispatcher
    }
  }

  /** Stands in for a fatal error: the orchestrator records the ambiguity and rethrows it. */
  static final class VirtualMachineErrorForTest extends VirtualMachineError {
    private static final long serialVersionUID = 1L;
  }

  void leaveAmbiguousAfterOneUnresolvedAttempt() {
    EffectOrchestrator orchestrator = EffectOrchestrator.builder(world.store, world.verifier)
        .clock(EffectWorld.fixedClock()).build();
    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1"), EXECUTION, BODY, request -> {
          throw new IllegalStateException("timeout after send");
        }, request -> ReconciliationResult.unresolved(EVIDENCE));
    assertThat(result.state()).isEqualTo(AMBIGUOUS);
  }

  EffectRecovery.Builder recovery(EffectReconciler reconciler) {
    return EffectRecovery.builder(world.store, EffectReconcilers.always(reconciler)).clock(now::get);
  }

  @Test
  void aStaleDispatchIsRecordedAmbiguousAndResolvedThroughTheReconciler() {
    world.store.claimEffect(ORG, "nonce-1", List.of(startedChain()));
    AtomicInteger reconciliations = new AtomicInteger();
    EffectRecovery recovery = recovery(request -> {
      reconciliations.incrementAndGet();
      return ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION);
    }).dispatchStaleAfter(Duration.ofMillis(300)).build();

    // staleness is judged by the database's clock: however far this instance's clock runs ahead, a dispatch that
    // the database saw start a moment ago is not stale
    now.set(T.plus(Duration.ofDays(365)));
    assertThat(recovery.recoverOnce().examined()).isZero();
    assertThat(state()).isEqualTo(DISPATCH_STARTED);

    sleepQuietly(400);
    EffectRecovery.Sweep sweep = recovery.recoverOnce();

    assertThat(sweep).isEqualTo(new EffectRecovery.Sweep(1, 1, 1, 0, 0, 0, 0));
    assertThat(reconciliations).hasValue(1);
    assertThat(state()).isEqualTo(SUCCEEDED);
    List<EffectReceipt> receipts = world.store.getReceiptsForEffect(ORG, EXECUTION);
    assertThat(receipts).extracting(EffectReceipt::finalState).containsExactly(AMBIGUOUS, SUCCEEDED);
    assertThat(receipts.get(1).resolvesAmbiguousRecordedAt()).isEqualTo(receipts.get(0).recordedAt());
    assertThat(receipts.get(1).reconciliationEvidence()).isEqualTo(EVIDENCE);
    assertThat(world.store.getConfirmationEvidence(ORG, receipts.get(1).confirmationEvidenceRef()))
        .map(ConfirmationEvidence::confirmationDigest).contains(CONFIRMATION);
  }

  @Test
  void anAmbiguityIsRetriedWithADoublingBackoffUntilTheReconcilerKnows() {
    leaveAmbiguousAfterOneUnresolvedAttempt();
    AtomicInteger calls = new AtomicInteger();
    EffectRecovery recovery = recovery(request -> calls.incrementAndGet() < 3
        ? ReconciliationResult.unresolved(EVIDENCE)
        : ReconciliationResult.failedSafe(EVIDENCE, new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "none")))
        .initialBackoff(Duration.ofSeconds(30)).maxBackoff(Duration.ofSeconds(100)).build();

    now.set(T.plusSeconds(10));
    assertThat(recovery.recoverOnce().notDue()).isEqualTo(1);
    now.set(T.plusSeconds(31));
    assertThat(recovery.recoverOnce().stillAmbiguous()).isEqualTo(1); // attempt 2; next wait 60 s
    now.set(T.plusSeconds(90));
    assertThat(recovery.recoverOnce().notDue()).isEqualTo(1);
    now.set(T.plusSeconds(92));
    assertThat(recovery.recoverOnce().stillAmbiguous()).isEqualTo(1); // attempt 3; next wait 100 s (capped)
    now.set(T.plusSeconds(191));
    assertThat(recovery.recoverOnce().notDue()).isEqualTo(1);
    now.set(T.plusSeconds(193));
    assertThat(recovery.recoverOnce().failedSafe()).isEqualTo(1);

    assertThat(calls).hasValue(3);
    assertThat(state()).isEqualTo(FAILED_SAFE);
    List<EffectReceipt> receipts = world.store.getReceiptsForEffect(ORG, EXECUTION);
    assertThat(receipts).extracting(EffectReceipt::finalState)
        .containsExactly(AMBIGUOUS, AMBIGUOUS, AMBIGUOUS, AMBIGUOUS, FAILED_SAFE);
    assertThat(receipts.get(4).resolvesAmbiguousRecordedAt()).isEqualTo(receipts.get(0).recordedAt());
    assertThat(world.store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state).endsWith(
        DISPATCH_STARTED, AMBIGUOUS, FAILED_SAFE);
    assertThat(recovery.recoverOnce().examined()).isZero();
  }

  @Test
  void withoutAReconcilerAnAttemptIsRecordedAndNothingIsDispatched() {
    leaveAmbiguousAfterOneUnresolvedAttempt();
    EffectRecovery recovery = EffectRecovery.builder(world.store, EffectReconcilers.byOperation(Map.of()))
        .clock(now::get).build();
    now.set(T.plus(Duration.ofHours(2)));

    assertThat(recovery.recoverOnce().stillAmbiguous()).isEqualTo(1);

    List<EffectReceipt> receipts = world.store.getReceiptsForEffect(ORG, EXECUTION);
    assertThat(receipts).hasSize(3);
    assertThat(receipts.get(2).reconciliationAttemptEvidence()).isEqualTo(EffectOutcomes.RECONCILIATION_UNAVAILABLE);
    assertThat(state()).isEqualTo(AMBIGUOUS);
  }

  @Test
  void aFatalErrorInsideTheDispatcherIsRecordedAmbiguousAndRethrown() {
    crashInsideDispatcher();
    assertThat(state()).isEqualTo(AMBIGUOUS);
    EffectRecovery recovery = recovery(request -> ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION)).build();
    now.set(T.plusSeconds(1));
    assertThat(recovery.recoverOnce().succeeded()).isEqualTo(1);
  }

  @Test
  void startSweepsAtOnceAndTellsTheListeners() throws Exception {
    world.store.claimEffect(ORG, "nonce-1", List.of(startedChain()));
    List<String> events = new ArrayList<>();
    now.set(T.plus(Duration.ofHours(1)));
    sleepQuietly(5);
    try (EffectRecovery recovery = recovery(request -> ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION))
        .dispatchStaleAfter(Duration.ofMillis(1)).listener(new EffectListener() {
          @Override
          public void transitionRecorded(EffectRecord effect, EffectState previousState) {
            events.add(previousState + "->" + effect.state());
          }

          @Override
          public void receiptRecorded(EffectReceipt receipt) {
            events.add("receipt " + receipt.finalState());
          }
        }).build()) {
      recovery.start(Duration.ofHours(1));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (state() != SUCCEEDED && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }
    assertThat(state()).isEqualTo(SUCCEEDED);
    assertThat(events).containsExactly("DISPATCH_STARTED->AMBIGUOUS", "receipt AMBIGUOUS", "AMBIGUOUS->SUCCEEDED",
        "receipt SUCCEEDED");
  }

  @Test
  void builderDurationsAndTheSweepIntervalMustBePositive() {
    assertThatThrownBy(() -> recovery(request -> null).lease(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("lease must be positive");
    assertThatThrownBy(() -> recovery(request -> null).dispatchStaleAfter(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("dispatchStaleAfter must be positive");
    try (EffectRecovery recovery = recovery(request -> null).build()) {
      assertThatThrownBy(() -> recovery.start(Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("interval must be positive");
      assertThatThrownBy(() -> recovery.start(Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("interval must be positive");
      assertThatThrownBy(() -> recovery.start(null))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("interval must be positive");
    }
  }

  @Test
  void theBackoffDoublesFromTheInitialWaitUpToTheCap() {
    EffectRecovery recovery = recovery(request -> null).initialBackoff(Duration.ofSeconds(30))
        .maxBackoff(Duration.ofMinutes(5)).build();
    assertThat(recovery.backoff(1)).isEqualTo(Duration.ofSeconds(30));
    assertThat(recovery.backoff(2)).isEqualTo(Duration.ofSeconds(60));
    assertThat(recovery.backoff(4)).isEqualTo(Duration.ofSeconds(240));
    assertThat(recovery.backoff(5)).isEqualTo(Duration.ofMinutes(5));
    assertThat(recovery.backoff(500)).isEqualTo(Duration.ofMinutes(5));
  }

  private EffectRecord[] startedChain() {
    EffectRecord created = new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND,
        ContractFixtures.AUTHORIZATION, ContractFixtures.KEY, "sha256:" + "b".repeat(64), Digests.requestDigest(BODY),
        EffectState.CREATED, T, T, null);
    EffectRecord verified = created.transitionTo(EffectState.AUTHORIZATION_VERIFIED, T.plusNanos(1000));
    EffectRecord prepared = verified.transitionTo(EffectState.PREPARED, T.plusNanos(2000));
    return new EffectRecord[] {created, verified, prepared,
        prepared.transitionTo(EffectState.DISPATCH_STARTED, T.plusNanos(3000))};
  }

  private EffectState state() {
    return world.store.getEffect(ORG, EXECUTION).orElseThrow().state();
  }
}
