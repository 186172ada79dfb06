package io.zeocore.connections.custody;

import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.LIST_FILES;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadState;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectWorld;
import io.zeocore.connections.read.ReadDispatchRequest;
import io.zeocore.connections.read.ReadDispatchResult;
import io.zeocore.connections.read.ReadDisposition;
import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.read.ReadResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CustodyReadDispatcher}: a read-only provider call with its token, inside the custody window. */
class CustodyReadDispatcherTest {

  static final String SECRET = "sk_live_READ_CANARY_7e13aa";
  static final String PROVIDER_TEXT = "READ-PROVIDER-ECHO-CANARY-04c9";
  static final byte[] BODY = "{\"folder\":\"folder-a\"}".getBytes(StandardCharsets.UTF_8);

  @TempDir Path temp;

  final InMemorySecretStore store = new InMemorySecretStore();
  final AtomicInteger providerCalls = new AtomicInteger();

  static Connection connectionWith(SecretRef ref) {
    Connection c = ContractFixtures.connection();
    return new Connection(c.connectionId(), c.organizationId(), c.connectorId(), c.connectorRevision(),
        c.providerApplicationProfile(), c.verifiedExternalIdentity(), List.of("folder-a"),
        c.grantedProviderScopes(), c.exposedBusinessOperations(), ref, c.status(), c.health(), c.createdAt(),
        c.lastVerifiedAt(), c.revokedAt());
  }

  static ReadDispatchRequest requestFor(SecretRef ref) {
    return new ReadDispatchRequest(ORG, connectionWith(ref), ContractFixtures.revision(), LIST_FILES,
        new ReadId("obs-1"), Digests.requestDigest(BODY), BODY);
  }

  @Test
  void readsWithTheSecretInsideCustodyAndZeroesItAfter() throws Exception {
    SecretRef ref = store.put(ORG, SECRET.toCharArray());
    AtomicReference<char[]> seen = new AtomicReference<>();
    CustodyReadDispatcher dispatcher = new CustodyReadDispatcher(store, (material, request) -> {
      providerCalls.incrementAndGet();
      seen.set(material.chars());
      assertThat(new String(seen.get())).isEqualTo(SECRET);
      return ReadDispatchResult.inline(Map.of("files", List.of("a.csv")));
    });

    ReadDispatchResult result = dispatcher.read(requestFor(ref));

    assertThat(result).isEqualTo(ReadDispatchResult.inline(Map.of("files", List.of("a.csv"))));
    assertThat(providerCalls).hasValue(1);
    assertThat(new String(seen.get())).isEqualTo("\0".repeat(SECRET.length()));
    assertThat(store.outstandingLeases()).isZero();
    assertThat(dispatcher.toString()).doesNotContain(SECRET).doesNotContain(ref.handle());
  }

  @Test
  void custodyFailuresBeforeTheProviderCallEndFailedSafeWithTheCustodyCode() throws Exception {
    SecretRef deleted = store.put(ORG, SECRET.toCharArray());
    store.delete(deleted, ORG);
    SecretRef foreign = store.put(new OrganizationId("org-2"), SECRET.toCharArray());
    CustodyReadDispatcher dispatcher = new CustodyReadDispatcher(store, (material, request) -> {
      providerCalls.incrementAndGet();
      return ReadDispatchResult.inline(List.of(1));
    });

    ReadDispatchResult missing = dispatcher.read(requestFor(deleted));
    ReadDispatchResult outOfScope = dispatcher.read(requestFor(foreign));

    assertThat(missing).isEqualTo(ReadDispatchResult.failedSafe(new NormalizedError(
        NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED,
        "secret custody failed before the provider call: CUSTODY_NOT_FOUND")));
    assertThat(outOfScope.disposition()).isEqualTo(ReadDisposition.FAILED_SAFE);
    assertThat(outOfScope.normalizedError().message()).endsWith("CUSTODY_SCOPE_MISMATCH");
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void providerFailuresAreProviderFailedWithoutCauseOrText() {
    SecretRef ref = store.put(ORG, SECRET.toCharArray());
    CustodyReadDispatcher dispatcher = new CustodyReadDispatcher(store, (material, request) -> {
      throw new IOException(PROVIDER_TEXT + " " + new String(material.chars()));
    });

    try (StderrCapture stderr = new StderrCapture()) {
      assertThatThrownBy(() -> dispatcher.read(requestFor(ref)))
          .isInstanceOfSatisfying(CustodyException.class, failure -> {
            assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
            assertThat(failure.getCause()).isNull();
            assertThat(failure.getSuppressed()).isEmpty();
            assertThat(failure.getMessage()).doesNotContain(PROVIDER_TEXT).doesNotContain(SECRET);
          });
      assertThat(stderr.text()).doesNotContain(PROVIDER_TEXT).doesNotContain(SECRET).doesNotContain(ref.handle());
    }
  }

  @Test
  void aResultRepeatingTheSecretAnywhereIsInvalid() {
    SecretRef ref = store.put(ORG, SECRET.toCharArray());
    List<ReadDispatchResult> leaking = List.of(
        ReadDispatchResult.inline(Map.of("page", Map.of("note", "token=" + SECRET))),
        ReadDispatchResult.inline(List.of(Map.of(SECRET, 1))),
        ReadDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED,
            "refused " + SECRET)));
    for (ReadDispatchResult result : leaking) {
      CustodyReadDispatcher dispatcher = new CustodyReadDispatcher(store, (material, request) -> result);

      assertThatThrownBy(() -> dispatcher.read(requestFor(ref)))
          .isInstanceOfSatisfying(CustodyException.class,
              failure -> assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT));
    }
    CustodyReadDispatcher nothing = new CustodyReadDispatcher(store, (material, request) -> null);
    assertThatThrownBy(() -> nothing.read(requestFor(ref)))
        .isInstanceOfSatisfying(CustodyException.class,
            failure -> assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT));
  }

  @Test
  void anInterruptedProviderIsReportedAsAnInterrupt() {
    SecretRef ref = store.put(ORG, SECRET.toCharArray());
    CustodyReadDispatcher dispatcher = new CustodyReadDispatcher(store, (material, request) -> {
      throw new InterruptedException(PROVIDER_TEXT);
    });

    assertThatThrownBy(() -> dispatcher.read(requestFor(ref)))
        .isInstanceOf(InterruptedException.class)
        .hasMessage("provider call interrupted inside custody");
    assertThat(Thread.interrupted()).isFalse();
  }

  @Test
  void observesEndToEndWithAPkcs12StoreThroughTheOrchestratorOnSqlite() throws Exception {
    try (EffectWorld world = new EffectWorld(temp);
        KeyStoreSecretStore secrets = KeyStoreSecretStore.open(temp.resolve("custody/secrets.p12"),
            "host-password".toCharArray())) {
      SecretRef ref = secrets.put(ORG, SECRET.toCharArray());
      world.store.saveConnection(ORG, connectionWith(ref));
      ReadOrchestrator orchestrator = new ReadOrchestrator(world.store, world.verifier,
          EffectWorld.fixedClock());
      CustodyReadDispatcher reader = new CustodyReadDispatcher(secrets, (material, request) -> {
        providerCalls.incrementAndGet();
        if (!new String(material.chars()).equals(SECRET)) {
          throw new IllegalStateException("wrong token");
        }
        return ReadDispatchResult.inline(Map.of("files", List.of("a.csv")));
      });
      CustodyReadDispatcher failing = new CustodyReadDispatcher(secrets, (material, request) -> {
        throw new IOException(PROVIDER_TEXT + " " + new String(material.chars()));
      });

      ReadResult read = orchestrator.read(ORG, CONNECTION, REVISION, LIST_FILES,
          authorization(world, "n1", new IdempotencyKey("idem-1")), new ReadId("obs-1"), BODY, reader);
      ReadResult providerFailed = orchestrator.read(ORG, CONNECTION, REVISION, LIST_FILES,
          authorization(world, "n2", new IdempotencyKey("idem-2")), new ReadId("obs-2"), BODY, failing);
      secrets.delete(ref, ORG);
      ReadResult secretGone = orchestrator.read(ORG, CONNECTION, REVISION, LIST_FILES,
          authorization(world, "n3", new IdempotencyKey("idem-3")), new ReadId("obs-3"), BODY, reader);

      assertThat(read.state()).isEqualTo(ReadState.CONFIRMED);
      assertThat(read.receipt().inlineResult()).isEqualTo(Map.of("files", List.of("a.csv")));
      assertThat(providerFailed.state()).isEqualTo(ReadState.FAILED_SAFE);
      assertThat(providerFailed.receipt().normalizedError().code()).isEqualTo(NormalizedErrorCode.PROVIDER_UNAVAILABLE);
      assertThat(secretGone.state()).isEqualTo(ReadState.FAILED_SAFE);
      assertThat(secretGone.receipt().normalizedError()).isEqualTo(new NormalizedError(
          NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED,
          "secret custody failed before the provider call: CUSTODY_NOT_FOUND"));
      assertThat(providerCalls).hasValue(1);
      for (Path file : files(temp)) {
        String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        assertThat(content).as(file.toString()).doesNotContain(SECRET).doesNotContain(PROVIDER_TEXT);
      }
    }
  }

  static EffectAuthorization authorization(EffectWorld world, String nonce, IdempotencyKey key) {
    EffectAuthorization base = EffectWorld.unsigned(nonce, key, Digests.requestDigest(BODY), T.plusSeconds(300));
    return world.signer.sign(new EffectAuthorization(base.authorizationId(), ORG, base.seatId(),
        base.runtimeBindingId(), base.packetId(), base.attemptId(), CONNECTION, REVISION, LIST_FILES,
        base.argumentDigest(), key, base.approvalRefs(), base.issuedAt(), base.expiresAt(), nonce, base.audience(),
        base.issuer(), base.signature()));
  }

  static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }
}
