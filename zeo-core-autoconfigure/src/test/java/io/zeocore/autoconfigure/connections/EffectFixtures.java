package io.zeocore.autoconfigure.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.EffectKind;
import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
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
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationContext;

/**
 * A real Ed25519 authority ({@code zeo-go}, audience {@code zeocore}) and a Stripe-like connection with one refund
 * operation, for driving the auto-configured orchestrator end to end.
 */
public final class EffectFixtures {

  public static final String ISSUER = "zeo-go";
  public static final String AUDIENCE = "zeocore";
  public static final OrganizationId ORG = new OrganizationId("org-1");
  public static final ConnectionId CONNECTION = new ConnectionId("conn-1");
  public static final ConnectorRevisionId REVISION = new ConnectorRevisionId("stripe-r1");
  public static final OperationId CREATE_REFUND = new OperationId("create_refund");
  public static final String STRATEGY = "lookup_by_idempotency_key";
  public static final String CONFIRMATION = "c".repeat(64);
  public static final String CANARY = "canary-body-3e9d";
  public static final byte[] BODY =
      ("{\"amount\":100,\"charge\":\"" + CANARY + "\"}").getBytes(StandardCharsets.UTF_8);

  private static final KeyPair KEYS = Ed25519Keys.generate();

  private EffectFixtures() {}

  /** Writes the authority's public key as PEM to {@code directory/zeo-go.pub} and returns the file. */
  public static Path writePublicKey(Path directory) throws IOException {
    return Files.writeString(directory.resolve("zeo-go.pub"), Ed25519Keys.publicKeyPem(KEYS.getPublic()));
  }

  /** The properties of an authorization trusting the authority whose key is in {@code publicKey}. */
  public static String[] authorizationProperties(Path publicKey) {
    return new String[] {"zeocore.connections.authorization.audience=" + AUDIENCE,
        "zeocore.connections.authorization.trusted-issuers=" + ISSUER,
        "zeocore.connections.authorization.trust-roots." + ISSUER + "=file:" + publicKey};
  }

  /** Saves the connector revision and the connection, active. */
  public static void saveConnection(JdbcConnectionStore store) {
    saveConnection(store, ConnectionStatus.ACTIVE);
  }

  /** Saves the connector revision and the connection with {@code status}. */
  public static void saveConnection(JdbcConnectionStore store, ConnectionStatus status) {
    BusinessOperation refund = new BusinessOperation(CREATE_REFUND, EffectKind.FINANCIAL,
        BusinessOperation.closedRequestSchema(
            Map.of("amount", Map.of("type", "integer"), "charge", Map.of("type", "string"))),
        Map.of("type", "object"), "https://api.stripe.com", "POST", "/v1/refunds", List.of("api_key"),
        List.of("$.id"), IdempotencyMode.PROVIDER_NATIVE, STRATEGY, null);
    store.saveConnectorRevision(ORG, new ConnectorRevision(new ConnectorId("stripe"), REVISION, "stripe", "api_key",
        "GET /v1/account", "GET /v1/balance", "header:Authorization", "default", "1",
        List.of("https://api.stripe.com"), List.of("refunds:write"), List.of(refund), 65_536, 1_048_576, 30.0, false,
        RiskClass.HIGH, true, "by_idempotency_key", null, List.of("fixture-1")));
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    store.saveConnection(ORG, new Connection(CONNECTION, ORG, new ConnectorId("stripe"), REVISION, "default-app",
        "acct_123", List.of(), List.of("refunds:write"), List.of(CREATE_REFUND),
        new SecretRef("zc0-kc:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a"), status,
        ConnectionHealth.HEALTHY, now, now, null));
  }

  /** An authorization signed by the authority for the refund over {@link #BODY}, valid for five minutes. */
  public static EffectAuthorization authorization(String nonce, String idempotencyKey) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    EffectAuthorization unsigned = new EffectAuthorization(new AuthorizationId("auth-" + nonce), ORG, "seat-1",
        "binding-1", "packet-1", "attempt-1", CONNECTION, REVISION, CREATE_REFUND, Digests.requestDigest(BODY),
        new IdempotencyKey(idempotencyKey), List.of("approval-1"), now.minusSeconds(1), now.plusSeconds(300), nonce,
        AUDIENCE, ISSUER, "unsigned");
    return new AuthorizationSigner(ISSUER, KEYS.getPrivate()).sign(unsigned);
  }

  /** Runs one refund that the provider confirms. */
  public static EffectResult refund(EffectOrchestrator orchestrator, String id) {
    return orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization("nonce-" + id, "idem-" + id),
        new EffectId(id), BODY, request -> EffectDispatchResult.confirmed(CONFIRMATION), unresolved());
  }

  /** Runs one refund whose provider call ends without a known outcome; the inline reconciliation learns nothing. */
  public static EffectResult ambiguousRefund(EffectOrchestrator orchestrator, String id) {
    return orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization("nonce-" + id, "idem-" + id),
        new EffectId(id), BODY, request -> {
          throw new IllegalStateException("connection reset after sending; provider said " + CANARY);
        }, unresolved());
  }

  /**
   * Saves the connection, runs one refund that goes ambiguous and, once a recovery backoff of 1ms has passed, sweeps
   * the context's recovery once.
   */
  public static EffectRecovery.Sweep recoverAnAmbiguousRefund(ApplicationContext context, String id)
      throws InterruptedException {
    saveConnection(context.getBean(JdbcConnectionStore.class));
    EffectResult ambiguous = ambiguousRefund(context.getBean(EffectOrchestrator.class), id);
    assertThat(ambiguous.state()).isEqualTo(EffectState.AMBIGUOUS);
    Thread.sleep(5);
    return context.getBean(EffectRecovery.class).recoverOnce();
  }

  public static EffectReconciler unresolved() {
    return request -> ReconciliationResult.unresolved("e".repeat(64));
  }

  public static EffectReconciler confirming() {
    return request -> ReconciliationResult.confirmed("f".repeat(64), CONFIRMATION);
  }
}
