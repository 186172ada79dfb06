package io.zeocore.reliability;

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
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.EffectStore;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The contract values every reliability test uses: one organization, one active connection to a refund operation,
 * an Ed25519 authority ({@code zeo-go}, audience {@code zeocore}) and authorizations valid on the real clock.
 */
public final class World {

  public static final String ISSUER = "zeo-go";
  public static final String AUDIENCE = "zeocore";
  public static final OrganizationId ORG = new OrganizationId("org-r");
  public static final ConnectionId CONNECTION = new ConnectionId("conn-r");
  public static final ConnectorId CONNECTOR = new ConnectorId("stripe");
  public static final ConnectorRevisionId REVISION = new ConnectorRevisionId("stripe-r1");
  public static final OperationId REFUND = new OperationId("create_refund");
  public static final String SECRET_HANDLE = "zc0-kc:org-r:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a";

  private World() {}

  /** A test body given two store instances on one database, the first of them seeded. */
  @FunctionalInterface
  public interface TwoStores {
    void run(String dialect, JdbcConnectionStore a, JdbcConnectionStore b) throws Exception;
  }

  /** Runs {@code body} on two store instances of the SQLite file {@code file}, the first seeded. */
  public static void onTwoSqliteStores(Path file, TwoStores body) throws Exception {
    try (JdbcConnectionStore a = seed(JdbcConnectionStore.openSqlite(file));
        JdbcConnectionStore b = JdbcConnectionStore.openSqlite(file)) {
      body.run("SQLite", a, b);
    }
  }

  /**
   * Runs {@code body} on two store instances of a new PostgreSQL schema, the first seeded, and drops the schema; the
   * test is skipped (outside CI) when the server is absent, naming {@code section}.
   */
  public static void onTwoPostgresStores(String section, TwoStores body) throws Exception {
    Pg.require(section + " on PostgreSQL");
    String schema = Pg.newSchema();
    try (JdbcConnectionStore a = seed(Pg.store(schema)); JdbcConnectionStore b = Pg.store(schema)) {
      body.run("PostgreSQL", a, b);
    } finally {
      Pg.drop(schema);
    }
  }

  public static byte[] body(int i) {
    return ("{\"amount\":" + (100 + i) + ",\"charge\":\"ch_" + i + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  public static ConnectorRevision revision() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("amount", Map.of("type", "integer"));
    properties.put("charge", Map.of("type", "string"));
    BusinessOperation refund = new BusinessOperation(REFUND, EffectKind.FINANCIAL,
        BusinessOperation.closedRequestSchema(properties), Map.of("type", "object"),
        "https://api.stripe.com", "POST", "/v1/refunds", List.of("api_key"), List.of("$.id"),
        IdempotencyMode.PROVIDER_NATIVE, "lookup_by_idempotency_key", null);
    return new ConnectorRevision(CONNECTOR, REVISION, "stripe", "api_key", "GET /v1/account", "GET /v1/balance",
        "header:Authorization", "default", "1", List.of("https://api.stripe.com"), List.of("refunds:write"),
        List.of(refund), 65_536, 1_048_576, 30.0, false, RiskClass.HIGH, true, "by_idempotency_key", null,
        List.of("fixture-1"));
  }

  public static Connection connection() {
    Instant t = Instant.parse("2026-03-01T10:00:00Z");
    return new Connection(CONNECTION, ORG, CONNECTOR, REVISION, "default-app", "acct_123", List.of("folder-a"),
        List.of("refunds:write"), List.of(REFUND), new SecretRef(SECRET_HANDLE), ConnectionStatus.ACTIVE,
        ConnectionHealth.HEALTHY, t, t.plusSeconds(60), null);
  }

  /** Saves the connection and its revision (idempotent). */
  public static <S extends EffectStore> S seed(S store) {
    store.saveConnectorRevision(ORG, revision());
    store.saveConnection(ORG, connection());
    return store;
  }

  public static ExactAuthorizationVerifier verifier(PublicKey key) {
    return new ExactAuthorizationVerifier(Ed25519SignatureVerifier.of(ISSUER, key), AUDIENCE, Set.of(ISSUER));
  }

  /** An unsigned authorization for the refund over {@code body}, valid from 5 s ago for 10 minutes. */
  public static EffectAuthorization unsigned(String nonce, String key, byte[] body) {
    return unsigned(nonce, key, body, Instant.now());
  }

  /** An unsigned authorization valid from 5 s before {@code now} for 10 minutes. */
  public static EffectAuthorization unsigned(String nonce, String key, byte[] body, Instant now) {
    return new EffectAuthorization(new AuthorizationId("auth-" + nonce), ORG, "seat-1", "binding-1", "packet-1",
        "attempt-1", CONNECTION, REVISION, REFUND, Digests.requestDigest(body), new IdempotencyKey(key),
        List.of("approval-1"), now.minusSeconds(5), now.plusSeconds(600), nonce, AUDIENCE, ISSUER, "unsigned");
  }

  /** An authority and a verifier trusting it. */
  public static final class Authority {
    public final KeyPair keys = Ed25519Keys.generate();
    public final AuthorizationSigner signer = new AuthorizationSigner(ISSUER, keys.getPrivate());
    public final ExactAuthorizationVerifier verifier = verifier(keys.getPublic());

    public Authority() {}

    public EffectAuthorization sign(String nonce, String key, byte[] body) {
      return signer.sign(unsigned(nonce, key, body));
    }

    public EffectOrchestrator orchestrator(EffectStore store) {
      return new EffectOrchestrator(store, verifier);
    }
  }

  /** Runs the refund of effect {@code i} (nonce {@code n-i}, key {@code k-i}, execution {@code x-i}). */
  public static EffectResult execute(EffectOrchestrator orchestrator, EffectAuthorization authorization,
      int i, EffectDispatcher dispatcher, EffectReconciler reconciler) {
    return orchestrator.execute(ORG, CONNECTION, REVISION, REFUND, authorization, new EffectId("x-" + i), body(i),
        dispatcher, reconciler);
  }
}
