package io.zeocore.connections.read;

import io.zeocore.InvalidFieldException;
import io.zeocore.connections.admission.PreflightCode;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.ReadArtifact;
import io.zeocore.connections.contract.ReadArtifactRef;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadState;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectWorld;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.LIST_FILES;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadOrchestratorTest {

  static final byte[] BODY = "{\"folder\":\"folder-a\"}".getBytes(StandardCharsets.UTF_8);
  static final ReadId OBSERVATION = new ReadId("obs-1");

  @TempDir
  Path temp;

  EffectWorld world;
  ReadOrchestrator orchestrator;
  final AtomicInteger calls = new AtomicInteger();

  @BeforeEach
  void setUp() {
    world = new EffectWorld(temp);
    orchestrator = new ReadOrchestrator(world.store, world.verifier, EffectWorld.fixedClock());
  }

  @AfterEach
  void tearDown() {
    world.close();
  }

  EffectAuthorization authorization(String nonce, IdempotencyKey key, byte[] body) {
    EffectAuthorization base = EffectWorld.unsigned(nonce, key, Digests.requestDigest(body), T.plusSeconds(300));
    return world.signer.sign(new EffectAuthorization(base.authorizationId(), ORG, base.seatId(),
        base.runtimeBindingId(), base.packetId(), base.attemptId(), CONNECTION, REVISION, LIST_FILES,
        base.argumentDigest(), key, base.approvalRefs(), base.issuedAt(), base.expiresAt(), nonce, base.audience(),
        base.issuer(), base.signature()));
  }

  ReadResult read(EffectAuthorization authorization, ReadId id, byte[] body,
      ReadDispatcher dispatcher) {
    return orchestrator.read(ORG, CONNECTION, REVISION, LIST_FILES, authorization, id, body, request -> {
      calls.incrementAndGet();
      return dispatcher.read(request);
    });
  }

  @Test
  void anInlineResultIsConfirmedWithTheDigestOfItsCanonicalBytes() {
    ReadResult result = read(authorization("n1", ContractFixtures.KEY, BODY), OBSERVATION, BODY,
        request -> ReadDispatchResult.inline(Map.of("size", 42, "name", "selected.csv")));

    String digest = "sha256:" + Digests.sha256Hex(
        "{\"name\":\"selected.csv\",\"size\":42}".getBytes(StandardCharsets.US_ASCII));
    ReadReceipt expected = new ReadReceipt(OBSERVATION, ORG, CONNECTION, ReadState.CONFIRMED,
        Digests.requestDigest(BODY), digest, Map.of("name", "selected.csv", "size", 42), null, null,
        T.plus(2, ChronoUnit.MICROS));
    assertThat(result).isEqualTo(new ReadResult(ReadState.CONFIRMED, OBSERVATION, expected,
        null));
    assertThat(world.store.getReadReceipt(ORG, OBSERVATION)).contains(expected);
    assertThat(world.store.getRead(ORG, OBSERVATION).orElseThrow().createdAt())
        .isEqualTo(T.plus(1, ChronoUnit.MICROS));
  }

  @Test
  void aReplayReturnsTheStoredReceiptWithoutObservingAgain() {
    EffectAuthorization authorization = authorization("n1", ContractFixtures.KEY, BODY);
    ReadResult first = read(authorization, OBSERVATION, BODY,
        request -> ReadDispatchResult.inline(List.of(1, 2)));
    ReadResult replay = read(authorization, new ReadId("obs-2"), BODY,
        request -> ReadDispatchResult.inline(List.of(3)));

    assertThat(replay).isEqualTo(first);
    assertThat(calls).hasValue(1);
  }

  @Test
  void reusingTheIdentityWithAnotherBodyIsRefusedAndNothingIsPersisted() {
    read(authorization("n1", ContractFixtures.KEY, BODY), OBSERVATION, BODY,
        request -> ReadDispatchResult.inline(List.of(1)));
    byte[] other = "{\"folder\":\"folder-b\"}".getBytes(StandardCharsets.UTF_8);
    world.store.saveConnection(ORG, new Connection(CONNECTION, ORG, ContractFixtures.CONNECTOR, REVISION,
        "default-app", "acct_123", List.of("folder-a", "folder-b"), List.of("refunds:write"),
        List.of(ContractFixtures.CREATE_REFUND, LIST_FILES), new SecretRef(ContractFixtures.SECRET_HANDLE),
        ConnectionStatus.ACTIVE, ConnectionHealth.HEALTHY, T, null, null));

    ReadResult result = read(authorization("n2", ContractFixtures.KEY, other),
        new ReadId("obs-2"), other, request -> ReadDispatchResult.inline(List.of(2)));

    assertThat(result).isEqualTo(ReadResult.refused(AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH));
    assertThat(world.store.getRead(ORG, new ReadId("obs-2"))).isEmpty();
    assertThat(calls).hasValue(1);
  }

  @Test
  void refusalsOfReadsAreNeverPersisted() {
    EffectAuthorization expired = world.signer.sign(new EffectAuthorization(ContractFixtures.AUTHORIZATION, ORG,
        "s", "b", "p", "a", CONNECTION, REVISION, LIST_FILES, Digests.requestDigest(BODY), ContractFixtures.KEY,
        List.of(), T.minusSeconds(60), T, "n1", EffectWorld.AUDIENCE, EffectWorld.ISSUER, "x"));

    assertThat(read(expired, OBSERVATION, BODY, request -> ReadDispatchResult.inline(1)))
        .isEqualTo(ReadResult.refused(AuthorizationRefusalReason.EXPIRED));
    assertThat(read(null, OBSERVATION, BODY, request -> ReadDispatchResult.inline(1)))
        .isEqualTo(ReadResult.refused(AuthorizationRefusalReason.ABSENT));
    assertThat(world.store.getRead(ORG, OBSERVATION)).isEmpty();
    assertThat(calls).hasValue(0);
  }

  @Test
  void secretShapedKeysAtAnyDepthFailSafeAndAreNeverStored() throws Exception {
    String canary = "TOKEN-CANARY-91ab";
    ReadResult result = read(authorization("n1", ContractFixtures.KEY, BODY), OBSERVATION, BODY,
        request -> ReadDispatchResult.inline(Map.of("files", List.of(Map.of("Access_Token", canary)))));

    assertThat(result.state()).isEqualTo(ReadState.FAILED_SAFE);
    assertThat(result.receipt().normalizedError()).isEqualTo(new NormalizedError(
        NormalizedErrorCode.PROVIDER_UNAVAILABLE, "provider observation did not complete safely"));
    assertThat(result.receipt().inlineResult()).isNull();
    world.store.close();
    try (var files = Files.list(temp)) {
      for (Path file : files.toList()) {
        assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).doesNotContain(canary);
      }
    }
  }

  @Test
  void resultsOverTheResponseLimitAndExceptionsFailSafe() {
    String big = "x".repeat(1_048_577);
    assertThat(read(authorization("n1", new IdempotencyKey("k1"), BODY), new ReadId("o1"), BODY,
        request -> ReadDispatchResult.inline(big)).state()).isEqualTo(ReadState.FAILED_SAFE);
    ReadArtifact huge = new ReadArtifact(new ReadArtifactRef(ContractFixtures.ARTIFACT_REF),
        "sha256:" + ContractFixtures.HEX, 1_048_577, "text/csv");
    assertThat(read(authorization("n2", new IdempotencyKey("k2"), BODY), new ReadId("o2"), BODY,
        request -> ReadDispatchResult.artifact(huge)).state()).isEqualTo(ReadState.FAILED_SAFE);
    assertThat(read(authorization("n3", new IdempotencyKey("k3"), BODY), new ReadId("o3"), BODY,
        request -> {
          throw new IllegalStateException("provider down");
        }).receipt().normalizedError().code()).isEqualTo(NormalizedErrorCode.PROVIDER_UNAVAILABLE);
    ReadArtifact fine = ContractFixtures.artifact();
    ReadResult artifact = read(authorization("n4", new IdempotencyKey("k4"), BODY),
        new ReadId("o4"), BODY, request -> ReadDispatchResult.artifact(fine));
    assertThat(artifact.state()).isEqualTo(ReadState.CONFIRMED);
    assertThat(artifact.receipt().resultDigest()).isEqualTo(fine.contentSha256());
  }

  @Test
  void aDeeplyNestedResultOrAnErrorFromTheProviderEndsTheClaimFailedSafeNeverStuck() {
    ReadResult deep = read(authorization("n1", new IdempotencyKey("k1"), BODY),
        new ReadId("o1"), BODY, request -> {
          Object value = "leaf";
          for (int i = 0; i < 5_000; i++) {
            value = List.of(value);
          }
          return ReadDispatchResult.inline(value);
        });
    ReadResult blownStack = read(authorization("n2", new IdempotencyKey("k2"), BODY),
        new ReadId("o2"), BODY, request -> {
          throw new StackOverflowError("provider recursion");
        });

    for (ReadResult result : List.of(deep, blownStack)) {
      assertThat(result.state()).isEqualTo(ReadState.FAILED_SAFE);
      assertThat(result.receipt().normalizedError().code()).isEqualTo(NormalizedErrorCode.PROVIDER_UNAVAILABLE);
      assertThat(world.store.getRead(ORG, result.readId()).orElseThrow().state())
          .isEqualTo(ReadState.FAILED_SAFE);
    }
    // a replay returns the stored terminal receipt and never observes again
    assertThat(read(authorization("n1", new IdempotencyKey("k1"), BODY), new ReadId("o3"), BODY,
        request -> ReadDispatchResult.inline(1)).state()).isEqualTo(ReadState.FAILED_SAFE);
  }

  @Test
  void aResultNestedDeeperThanTheConfiguredBoundFailsSafeAndOneWithinItIsStored() {
    orchestrator = ReadOrchestrator.builder(world.store, world.verifier).clock(EffectWorld.fixedClock())
        .maxResultDepth(3).build();

    ReadResult within = read(authorization("n1", new IdempotencyKey("k1"), BODY),
        new ReadId("o1"), BODY, request -> ReadDispatchResult.inline(nested(3)));
    ReadResult deeper = read(authorization("n2", new IdempotencyKey("k2"), BODY),
        new ReadId("o2"), BODY, request -> ReadDispatchResult.inline(nested(4)));

    assertThat(within.state()).isEqualTo(ReadState.CONFIRMED);
    assertThat(within.receipt().inlineResult()).isEqualTo(nested(3));
    assertThat(deeper.state()).isEqualTo(ReadState.FAILED_SAFE);
    assertThat(deeper.receipt().inlineResult()).isNull();
    assertThat(deeper.receipt().normalizedError().code()).isEqualTo(NormalizedErrorCode.PROVIDER_UNAVAILABLE);
    assertThat(world.store.getReadReceipt(ORG, new ReadId("o2")).orElseThrow().inlineResult())
        .isNull();
  }

  @Test
  void listenersAreToldHowEachCallEndedAndOneThatThrowsChangesNothing() {
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    ReadListener recording = (operation, id) -> new ReadListener.ReadScope() {
      @Override
      public void returned(ReadResult result) {
        heard.add(id.value() + ":" + (result.refusalReason() != null ? result.refusalReason() : result.state()));
      }

      @Override
      public void threw(RuntimeException thrown) {
        heard.add(id.value() + ":" + thrown.getClass().getSimpleName());
      }
    };
    ReadListener throwing = (operation, id) -> {
      throw new IllegalStateException("listener bug");
    };
    orchestrator = ReadOrchestrator.builder(world.store, world.verifier).clock(EffectWorld.fixedClock())
        .listener(throwing).listener(recording).build();

    ReadResult confirmed = read(authorization("n1", new IdempotencyKey("k1"), BODY),
        new ReadId("o1"), BODY, request -> ReadDispatchResult.inline(1));
    orchestrator.read(ORG, CONNECTION, REVISION, LIST_FILES, null, new ReadId("o2"), BODY,
        request -> ReadDispatchResult.inline(1));

    assertThat(confirmed.state()).isEqualTo(ReadState.CONFIRMED);
    assertThat(heard).containsExactly("o1:CONFIRMED", "o2:ABSENT");
  }

  @Test
  void theResultDepthBoundIsAtLeastOneAndAtMostWhatEveryReaderAccepts() {
    assertThatThrownBy(() -> ReadOrchestrator.builder(world.store, world.verifier).maxResultDepth(0))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("maxResultDepth");
    assertThatThrownBy(() -> ReadOrchestrator.builder(world.store, world.verifier)
        .maxResultDepth(ReadOrchestrator.DEFAULT_MAX_RESULT_DEPTH + 1))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("maxResultDepth");
  }

  /** {@code {"a": {"a": … "leaf"}}}, {@code levels} maps deep. */
  private static Object nested(int levels) {
    Object value = "leaf";
    for (int i = 0; i < levels; i++) {
      value = Map.of("a", value);
    }
    return value;
  }

  @Test
  void theResourceArgumentMustNameASelectedBusinessResource() {
    byte[] other = "{\"folder\":\"folder-z\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> read(authorization("n1", ContractFixtures.KEY, other), OBSERVATION, other,
        request -> ReadDispatchResult.inline(1)))
        .isInstanceOf(ReadPreflightException.class)
        .hasMessage("business resource is not selected")
        .satisfies(e -> assertThat(((ReadPreflightException) e).code())
            .isEqualTo(PreflightCode.BUSINESS_RESOURCE_NOT_SELECTED));
    assertThat(world.store.hasAuthorizationNonce(ORG, "n1")).isFalse();
  }

  @Test
  void effectfulOperationsAreRefusedByTheReadPath() {
    EffectAuthorization refund = world.authorization("n1");
    assertThatThrownBy(() -> orchestrator.read(ORG, CONNECTION, REVISION, ContractFixtures.CREATE_REFUND, refund,
        OBSERVATION, ContractFixtures.BODY, request -> ReadDispatchResult.inline(1)))
        .isInstanceOf(ReadPreflightException.class)
        .hasMessage("effectful operations require effect orchestration");
  }
}
