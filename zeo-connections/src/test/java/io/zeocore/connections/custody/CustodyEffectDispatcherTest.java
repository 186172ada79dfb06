package io.zeocore.connections.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.DispatchNotStartedException;
import io.zeocore.connections.effect.EffectDispatchRequest;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectReconciliationRequest;
import io.zeocore.connections.effect.ReconciliationResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The custody window as the orchestrator's dispatcher and reconciler see it. */
class CustodyEffectDispatcherTest {

  static final OrganizationId ORG = ContractFixtures.ORG;
  static final String CANARY = "sk_live_CANARY_7f3a9b21";
  static final String CONFIRMATION = "c".repeat(64);
  static final String EVIDENCE = "e".repeat(64);

  final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  final InMemorySecretStore store = new InMemorySecretStore(clock, SecretStore.DEFAULT_LEASE_TTL);
  final AtomicInteger providerCalls = new AtomicInteger();

  static EffectDispatchRequest requestFor(SecretRef ref) {
    Connection c = ContractFixtures.connection();
    Connection connection = new Connection(c.connectionId(), c.organizationId(), c.connectorId(),
        c.connectorRevision(), c.providerApplicationProfile(), c.verifiedExternalIdentity(),
        c.selectedBusinessResources(), c.grantedProviderScopes(), c.exposedBusinessOperations(), ref, c.status(),
        c.health(), c.createdAt(), c.lastVerifiedAt(), c.revokedAt());
    return new EffectDispatchRequest(ORG, connection, ContractFixtures.revision(), ContractFixtures.CREATE_REFUND,
        ContractFixtures.EXECUTION, ContractFixtures.KEY, Digests.requestDigest(ContractFixtures.BODY),
        ContractFixtures.BODY);
  }

  static EffectReconciliationRequest reconciliationFor(SecretRef ref) {
    return EffectReconciliationRequest.afterDispatch(requestFor(ref), Instant.parse("2026-03-01T10:00:01Z"));
  }

  static String everythingPrintable(Throwable failure) {
    StringWriter trace = new StringWriter();
    failure.printStackTrace(new PrintWriter(trace));
    return failure + "\n" + failure.getMessage() + "\n" + trace;
  }

  static CustodyException custodyFailure(ThrowingCallable action) {
    Throwable thrown = catchThrowable(action);
    assertThat(thrown).isInstanceOf(CustodyException.class);
    return (CustodyException) thrown;
  }

  @Test
  void onlyTheProviderCodesSayTheProviderWasCalledAndEveryOtherCodeEndsTheDispatchNotStarted() {
    for (CustodyErrorCode code : CustodyErrorCode.values()) {
      boolean providerCode = code == CustodyErrorCode.CUSTODY_PROVIDER_FAILED
          || code == CustodyErrorCode.CUSTODY_INVALID_RESULT;
      assertThat(code.providerCalled()).as(code.name()).isEqualTo(providerCode);
      Throwable notStarted = catchThrowable(() -> CustodyEffectDispatcher.notStarted(code));
      if (providerCode) {
        assertThat(notStarted).as(code.name()).isInstanceOf(IllegalArgumentException.class);
      } else {
        assertThat(notStarted).as(code.name()).isNull();
        assertThat(CustodyEffectDispatcher.notStarted(code).reasonCode()).isEqualTo(code.name());
      }
    }
  }

  @Test
  void theProviderGetsTheSecretOnceAndEveryArrayItSawIsZeroedAfterItReturns() throws Exception {
    SecretRef ref = store.put(ORG, CANARY.toCharArray());
    List<Object> seen = new ArrayList<>();
    AtomicReference<SecretMaterial> kept = new AtomicReference<>();
    CustodyEffectDispatcher dispatcher = new CustodyEffectDispatcher(store, (material, request) -> {
      providerCalls.incrementAndGet();
      byte[] bytes = material.bytes();
      char[] chars = material.chars();
      assertThat(new String(chars)).isEqualTo(CANARY);
      assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(CANARY);
      assertThat(request.effectId()).isEqualTo(ContractFixtures.EXECUTION);
      seen.add(bytes);
      seen.add(chars);
      kept.set(material);
      return EffectDispatchResult.confirmed(CONFIRMATION);
    });

    EffectDispatchResult result = dispatcher.dispatch(requestFor(ref));

    assertThat(result).isEqualTo(EffectDispatchResult.confirmed(CONFIRMATION));
    assertThat(providerCalls).hasValue(1);
    assertThat((byte[]) seen.get(0)).hasSize(CANARY.length()).containsOnly(0);
    assertThat((char[]) seen.get(1)).hasSize(CANARY.length()).containsOnly('\0');
    assertThat(catchThrowable(() -> kept.get().bytes())).isInstanceOf(IllegalStateException.class);
    assertThat(store.outstandingLeases()).isZero();
  }

  @Test
  void everyDispatchAndReconciliationRedeemsAFreshLease() throws Exception {
    SecretRef ref = store.put(ORG, CANARY.getBytes(StandardCharsets.UTF_8));
    CustodyEffectDispatcher dispatcher = new CustodyEffectDispatcher(store, (material, request) -> {
      providerCalls.incrementAndGet();
      return EffectDispatchResult.confirmed(CONFIRMATION);
    });
    CustodyEffectReconciler reconciler = new CustodyEffectReconciler(store, (material, request) -> {
      providerCalls.incrementAndGet();
      assertThat(new String(material.chars())).isEqualTo(CANARY);
      return ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION);
    });

    dispatcher.dispatch(requestFor(ref));
    dispatcher.dispatch(requestFor(ref));
    ReconciliationResult reconciled = reconciler.reconcile(reconciliationFor(ref));

    assertThat(reconciled).isEqualTo(ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION));
    assertThat(providerCalls).hasValue(3);
    assertThat(store.outstandingLeases()).isZero();
  }

  @Test
  void aProviderExceptionCarryingTheSecretBecomesASanitizedExceptionAndTheSecretAppearsNowhere() {
    SecretRef ref = store.put(ORG, CANARY.toCharArray());
    List<char[]> seen = new ArrayList<>();
    CustodyEffectDispatcher dispatcher = new CustodyEffectDispatcher(store, (material, request) -> {
      providerCalls.incrementAndGet();
      char[] chars = material.chars();
      seen.add(chars);
      IllegalStateException failure = new IllegalStateException(
          "provider rejected key " + new String(chars) + " for " + request.connection().secretHandle().handle(),
          new RuntimeException("cause also carries " + CANARY));
      failure.addSuppressed(new RuntimeException("suppressed " + CANARY));
      throw failure;
    });

    CustodyException failure;
    String log;
    try (StderrCapture stderr = new StderrCapture()) {
      failure = custodyFailure(() -> dispatcher.dispatch(requestFor(ref)));
      log = stderr.text();
    }

    assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
    assertThat(failure.providerCalled()).isTrue();
    assertThat(failure.getCause()).isNull();
    assertThat(failure.getSuppressed()).isEmpty();
    assertThat(failure.getMessage()).isEqualTo("CUSTODY_PROVIDER_FAILED: provider call failed inside custody");
    assertThat(catchThrowable(() -> failure.initCause(new RuntimeException(CANARY))))
        .isInstanceOf(IllegalStateException.class);
    failure.addSuppressed(new RuntimeException(CANARY));
    assertThat(failure.getSuppressed()).isEmpty();
    assertThat(everythingPrintable(failure)).doesNotContain(CANARY).doesNotContain(ref.handle());
    assertThat(log).contains("CUSTODY_PROVIDER_FAILED", "java.lang.IllegalStateException")
        .doesNotContain(CANARY).doesNotContain(ref.handle()).doesNotContain("provider rejected");
    assertThat(seen.get(0)).containsOnly('\0');
    assertThat(providerCalls).hasValue(1);
  }

  @Test
  void custodyFailuresBeforeTheProviderTellTheOrchestratorThatNothingWasDispatched() {
    CustodyEffectDispatcher.Provider provider = (material, request) -> {
      providerCalls.incrementAndGet();
      return EffectDispatchResult.confirmed(CONFIRMATION);
    };
    SecretRef deleted = store.put(ORG, CANARY.toCharArray());
    store.delete(deleted, ORG);
    SecretRef otherTenants = store.put(new OrganizationId("org-2"), CANARY.toCharArray());
    RecordingSecretStore empty = new RecordingSecretStore(clock);
    SecretRef emptyRef = new SecretRef("zc0-ks:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a");
    empty.plant(emptyRef.handle(), new byte[0]);
    RecordingSecretStore broken = new RecordingSecretStore(clock);
    SecretRef unreachable = broken.put(ORG, CANARY.toCharArray());
    broken.failWith("keystore locked while reading " + CANARY);

    List<Throwable> failures = List.of(
        catchThrowable(() -> new CustodyEffectDispatcher(store, provider).dispatch(requestFor(deleted))),
        catchThrowable(() -> new CustodyEffectDispatcher(store, provider).dispatch(requestFor(otherTenants))),
        catchThrowable(() -> new CustodyEffectDispatcher(empty, provider).dispatch(requestFor(emptyRef))),
        catchThrowable(() -> new CustodyEffectDispatcher(broken, provider).dispatch(requestFor(unreachable))));

    assertThat(failures).allSatisfy(failure -> {
      assertThat(failure).isInstanceOf(DispatchNotStartedException.class);
      assertThat(failure.getCause()).isNull();
      assertThat(everythingPrintable(failure)).doesNotContain(CANARY).doesNotContain("zc0-ks:");
    });
    assertThat(failures).map(failure -> ((DispatchNotStartedException) failure).reasonCode())
        .containsExactly("CUSTODY_NOT_FOUND", "CUSTODY_SCOPE_MISMATCH", "CUSTODY_EMPTY_MATERIAL",
            "CUSTODY_BACKEND_FAILURE");
    assertThat(failures).map(failure -> ((DispatchNotStartedException) failure).errorCode()).containsExactly(
        NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED, NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED,
        NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED, NormalizedErrorCode.FAILED_SAFE);
    assertThat(failures.get(0)).hasMessage("dispatch did not start: CUSTODY_NOT_FOUND");
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void everyCodeRaisedBeforeTheProviderMapsToANotStartedSignal() {
    for (CustodyErrorCode code : CustodyErrorCode.values()) {
      if (code.providerCalled()) {
        assertThat(catchThrowable(() -> CustodyEffectDispatcher.notStarted(code)))
            .isInstanceOf(IllegalArgumentException.class);
      } else {
        assertThat(CustodyEffectDispatcher.notStarted(code).reasonCode()).isEqualTo(code.name());
      }
    }
    assertThat(CustodyErrorCode.values()).filteredOn(CustodyErrorCode::providerCalled)
        .containsExactly(CustodyErrorCode.CUSTODY_PROVIDER_FAILED, CustodyErrorCode.CUSTODY_INVALID_RESULT);
  }

  @Test
  void reconcilerFailuresBeforeTheProviderAreMarkedAsNotHavingCalledIt() {
    SecretRef otherTenants = store.put(new OrganizationId("org-2"), CANARY.toCharArray());

    CustodyException failure = custodyFailure(() -> new CustodyEffectReconciler(store, (material, request) -> {
      providerCalls.incrementAndGet();
      return ReconciliationResult.unresolved(EVIDENCE);
    }).reconcile(reconciliationFor(otherTenants)));

    assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(failure.providerCalled()).isFalse();
    assertThat(failure.getCause()).isNull();
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void aProviderReturningNothingIsAnInvalidResultAfterTheProviderWasCalled() {
    SecretRef ref = store.put(ORG, CANARY.toCharArray());

    CustodyException dispatch = custodyFailure(() -> new CustodyEffectDispatcher(store, (material, request) -> {
      providerCalls.incrementAndGet();
      return null;
    }).dispatch(requestFor(ref)));
    CustodyException reconcile = custodyFailure(() -> new CustodyEffectReconciler(store, (material, request) -> {
      providerCalls.incrementAndGet();
      return null;
    }).reconcile(reconciliationFor(ref)));

    assertThat(dispatch.code()).isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT);
    assertThat(dispatch.providerCalled()).isTrue();
    assertThat(reconcile.code()).isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT);
    assertThat(providerCalls).hasValue(2);
  }

  @Test
  void aResultRepeatingTheSecretIsRefusedSoItCannotReachAReceipt() throws Exception {
    SecretRef ref = store.put(ORG, CANARY.toCharArray());
    CustodyEffectDispatcher dispatcher = new CustodyEffectDispatcher(store, (material, request) ->
        EffectDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED,
            "provider refused key " + new String(material.chars()))));
    CustodyEffectReconciler reconciler = new CustodyEffectReconciler(store, (material, request) ->
        ReconciliationResult.failedSafe(EVIDENCE, new NormalizedError(NormalizedErrorCode.FAILED_SAFE,
            "no refund for " + new String(material.chars()))));
    CustodyEffectDispatcher honest = new CustodyEffectDispatcher(store, (material, request) ->
        EffectDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "card declined")));

    try (StderrCapture stderr = new StderrCapture()) {
      CustodyException dispatch = custodyFailure(() -> dispatcher.dispatch(requestFor(ref)));
      CustodyException reconcile = custodyFailure(() -> reconciler.reconcile(reconciliationFor(ref)));

      assertThat(dispatch.code()).isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT);
      assertThat(dispatch.providerCalled()).isTrue();
      assertThat(reconcile.code()).isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT);
      assertThat(stderr.text()).contains("CUSTODY_INVALID_RESULT").doesNotContain(CANARY);
    }
    assertThat(honest.dispatch(requestFor(ref)).normalizedError().message()).isEqualTo("card declined");
  }

  @Test
  void anInterruptedProviderSurfacesAsAFreshInterruptedExceptionWithoutItsText() {
    SecretRef ref = store.put(ORG, CANARY.toCharArray());
    CustodyEffectDispatcher dispatcher = new CustodyEffectDispatcher(store, (material, request) -> {
      throw new InterruptedException("interrupted while sending " + new String(material.chars()));
    });

    Throwable failure = catchThrowable(() -> dispatcher.dispatch(requestFor(ref)));

    assertThat(failure).isInstanceOf(InterruptedException.class)
        .hasMessage("provider call interrupted inside custody").hasNoCause();
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void theReconcilerSanitizesProviderFailuresLikeTheDispatcher() {
    SecretRef ref = store.put(ORG, CANARY.toCharArray());
    List<byte[]> seen = new ArrayList<>();
    CustodyEffectReconciler reconciler = new CustodyEffectReconciler(store, (material, request) -> {
      seen.add(material.bytes());
      throw new IllegalStateException("lookup failed with " + new String(material.chars()));
    });

    CustodyException failure = custodyFailure(() -> reconciler.reconcile(reconciliationFor(ref)));

    assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
    assertThat(failure.getCause()).isNull();
    assertThat(everythingPrintable(failure)).doesNotContain(CANARY);
    assertThat(seen.get(0)).containsOnly(0);
    assertThat(reconciler.toString()).doesNotContain(CANARY).doesNotContain(ref.handle());
  }
}
