package io.zeocore.test.effects;

import io.zeocore.EffectKind;
import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Everything the durable side needs to test an application's own {@link EffectDispatcher}s and
 * {@link EffectReconciler}s, in one object: a store (a temporary SQLite file, or one of the test's), one organization
 * with one active connection to one financial operation ({@link #OPERATION}, a refund), an Ed25519 authority that
 * signs exact authorizations and the orchestrator that verifies them, and recovery sweeps on demand.
 *
 * <pre>{@code
 * try (EffectFixture effects = EffectFixture.temporary()) {
 *   EffectResult lost = effects.execute(ScriptedDispatchers.losingTheAnswer(), ScriptedReconcilers.unresolved());
 *   assertThat(lost.state()).isEqualTo(EffectState.AMBIGUOUS);
 *   effects.recoverNow(myReconciler);
 *   assertThat(effects.state(lost.effectId())).isEqualTo(EffectState.SUCCEEDED);
 * }
 * }</pre>
 * Each {@link #execute} is a new effect (its own id, nonce and idempotency key) unless the test passes its own.
 */
public final class EffectFixture implements AutoCloseable {

  public static final OrganizationId ORGANIZATION = new OrganizationId("org-test");
  public static final ConnectionId CONNECTION = new ConnectionId("conn-test");
  public static final ConnectorId CONNECTOR = new ConnectorId("payments");
  public static final ConnectorRevisionId REVISION = new ConnectorRevisionId("payments-r1");
  public static final OperationId OPERATION = new OperationId("create_refund");
  static final String ISSUER = "test-issuer";
  static final String AUDIENCE = "zeocore-test";

  private final JdbcConnectionStore store;
  private final @Nullable Path temporary;
  private final AuthorizationSigner signer;
  private final EffectOrchestrator orchestrator;
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicInteger sweeps = new AtomicInteger();

  private EffectFixture(JdbcConnectionStore store, @Nullable Path temporary) {
    this.store = store;
    this.temporary = temporary;
    KeyPair keys = Ed25519Keys.generate();
    this.signer = new AuthorizationSigner(ISSUER, keys.getPrivate());
    ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(
        Ed25519SignatureVerifier.of(ISSUER, keys.getPublic()), AUDIENCE, Set.of(ISSUER));
    this.orchestrator = new EffectOrchestrator(store, verifier);
    store.saveConnectorRevision(ORGANIZATION, revision());
    store.saveConnection(ORGANIZATION, connection());
  }

  /** A fixture on a new SQLite file in a temporary directory, deleted by {@link #close()}. */
  public static EffectFixture temporary() {
    try {
      Path directory = Files.createTempDirectory("zeocore-effects-");
      return new EffectFixture(JdbcConnectionStore.openSqlite(directory.resolve("zeocore.db")), directory);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary store", e);
    }
  }

  /** A fixture on the test's own store (PostgreSQL, say): the connection and revision are saved into it. */
  public static EffectFixture on(JdbcConnectionStore store) {
    return new EffectFixture(store, null);
  }

  /** The store. */
  public JdbcConnectionStore store() {
    return store;
  }

  /** The orchestrator, verifying this fixture's authorizations. */
  public EffectOrchestrator orchestrator() {
    return orchestrator;
  }

  /** A refund request body; {@code amount} and a charge id make each distinct. */
  public static byte[] refundBody(int amount, String charge) {
    return ("{\"amount\":" + amount + ",\"charge\":\"" + charge + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  /** A new refund effect dispatched by {@code dispatcher}; an ambiguity is left unresolved until recovery. */
  public EffectResult execute(EffectDispatcher dispatcher) {
    return execute(dispatcher, ScriptedReconcilers.unresolved());
  }

  /**
   * A new refund effect: signed for this fixture's connection, with a fresh effect id, nonce and idempotency key, then
   * run through the orchestrator; {@code reconciler} resolves it at once if the dispatch ends ambiguous.
   */
  public EffectResult execute(EffectDispatcher dispatcher, EffectReconciler reconciler) {
    int n = sequence.incrementAndGet();
    return execute(new EffectId("effect-" + n + "-" + UUID.randomUUID().toString().substring(0, 8)),
        "key-" + UUID.randomUUID(), refundBody(100 + n, "ch_" + n), dispatcher, reconciler);
  }

  /**
   * The effect {@code effectId} with idempotency key {@code idempotencyKey} over {@code body}: the same key twice is
   * the same effect (the orchestrator replays its outcome instead of dispatching again).
   */
  public EffectResult execute(EffectId effectId, String idempotencyKey, byte[] body, EffectDispatcher dispatcher,
      EffectReconciler reconciler) {
    Instant now = Instant.now();
    String nonce = "nonce-" + UUID.randomUUID();
    EffectAuthorization authorization = signer.sign(new EffectAuthorization(new AuthorizationId("auth-" + nonce),
        ORGANIZATION, "seat-test", "binding-test", "packet-test", "attempt-test", CONNECTION, REVISION, OPERATION,
        Digests.requestDigest(body), new IdempotencyKey(idempotencyKey), List.of("approval-test"),
        now.minusSeconds(5), now.plusSeconds(600), nonce, AUDIENCE, ISSUER, "unsigned"));
    return orchestrator.execute(ORGANIZATION, CONNECTION, REVISION, OPERATION, authorization, effectId, body,
        dispatcher, reconciler);
  }

  /**
   * One recovery sweep now, as a deployment's recovery would run it later: every ambiguous effect is due (whatever
   * its backoff) and every dispatch in flight for over a millisecond is presumed orphaned; {@code reconciler}
   * reconciles them.
   */
  public EffectRecovery.Sweep recoverNow(EffectReconciler reconciler) {
    // each sweep's clock is an hour past the last one's: every receipt so far is older than the backoff
    Duration ahead = Duration.ofHours(sweeps.incrementAndGet());
    EffectRecovery recovery = EffectRecovery.builder(store, EffectReconcilers.always(reconciler))
        .clock(() -> Instant.now().plus(ahead))
        .initialBackoff(Duration.ofMinutes(1)).maxBackoff(Duration.ofMinutes(1))
        .dispatchStaleAfter(Duration.ofMillis(1))
        .build();
    try {
      return recovery.recoverOnce();
    } finally {
      recovery.close();
    }
  }

  /** The effect's current state. */
  public EffectState state(@Nullable EffectId effectId) {
    return store.getEffect(ORGANIZATION, required(effectId)).orElseThrow(
        () -> new IllegalArgumentException("no effect " + effectId)).state();
  }

  /** The effect's receipts, in order. */
  public List<EffectReceipt> receipts(@Nullable EffectId effectId) {
    return store.getReceiptsForEffect(ORGANIZATION, required(effectId));
  }

  private static EffectId required(@Nullable EffectId effectId) {
    if (effectId == null) {
      throw new IllegalArgumentException("a refused effect has no id");
    }
    return effectId;
  }

  /** The connector revision: one financial refund operation with a provider-native idempotency key. */
  public static ConnectorRevision revision() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("amount", Map.of("type", "integer"));
    properties.put("charge", Map.of("type", "string"));
    BusinessOperation refund = new BusinessOperation(OPERATION, EffectKind.FINANCIAL,
        BusinessOperation.closedRequestSchema(properties), Map.of("type", "object"),
        "https://api.acme-payments.com", "POST", "/v1/refunds", List.of("api_key"), List.of("$.id"),
        IdempotencyMode.PROVIDER_NATIVE, "lookup_by_idempotency_key", null);
    return new ConnectorRevision(CONNECTOR, REVISION, "payments", "api_key", "GET /v1/account", "GET /v1/balance",
        "header:Authorization", "default", "1", List.of("https://api.acme-payments.com"), List.of("refunds:write"),
        List.of(refund), 65_536, 1_048_576, 30.0, false, RiskClass.HIGH, true, "by_idempotency_key", null,
        List.of("fixture-1"));
  }

  /** The organization's active connection to the revision. */
  public static Connection connection() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return new Connection(CONNECTION, ORGANIZATION, CONNECTOR, REVISION, "default-app", "acct_test",
        List.of("folder-a"), List.of("refunds:write"), List.of(OPERATION),
        new SecretRef("zc0-kc:org-test:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a"), ConnectionStatus.ACTIVE,
        ConnectionHealth.HEALTHY, t, t.plusSeconds(60), null);
  }

  /** Closes the store; a temporary one is deleted. */
  @Override
  public void close() {
    store.close();
    if (temporary != null) {
      try (Stream<Path> files = Files.walk(temporary)) {
        files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException("could not delete the temporary store", e);
      }
    }
  }
}
