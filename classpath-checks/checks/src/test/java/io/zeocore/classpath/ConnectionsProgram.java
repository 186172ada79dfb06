package io.zeocore.classpath;

import io.zeocore.EffectKind;
import io.zeocore.connections.admission.ConnectorAdmission;
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
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * On zeo-connections' class path and the application's SQLite driver alone: a store opened on a new file and migrated,
 * a connector revision and connection admitted, and one signed effect executed and dispatched once (signature checked
 * with the JDK's Ed25519: BouncyCastle is optional).
 */
public final class ConnectionsProgram {

  private static final OrganizationId ORG = new OrganizationId("org-check");
  private static final ConnectorId CONNECTOR = new ConnectorId("ledger");
  private static final ConnectorRevisionId REVISION = new ConnectorRevisionId("ledger-r1");
  private static final ConnectionId CONNECTION = new ConnectionId("ledger-connection");
  private static final OperationId PAY = new OperationId("post_payment");

  private ConnectionsProgram() {}

  public static void main(String[] args) throws Exception {
    Path directory = Files.createTempDirectory("zeocore-classpath-check");
    KeyPair keys = Ed25519Keys.generate();
    AtomicInteger dispatches = new AtomicInteger();
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(directory.resolve("store/zeocore.db"))) {
      ConnectorRevision revision = revision();
      ConnectorAdmission.validateConnectorRevision(revision);
      store.saveConnectorRevision(ORG, revision);
      store.saveConnection(ORG, connection());
      EffectOrchestrator orchestrator = new EffectOrchestrator(store, new ExactAuthorizationVerifier(
          Ed25519SignatureVerifier.usingJdk(Map.of("authority", java.util.List.of(keys.getPublic()))), "zeocore",
          Set.of("authority")));

      byte[] body = "{\"amountCents\":1250}".getBytes(StandardCharsets.UTF_8);
      Instant now = Instant.now();
      EffectAuthorization authorization = new AuthorizationSigner("authority", keys.getPrivate()).sign(
          EffectAuthorization.builder()
              .authorizationId(new AuthorizationId("auth-1")).organizationId(ORG)
              .seatId("seat").runtimeBindingId("binding").packetId("packet").attemptId("attempt")
              .connectionId(CONNECTION).connectorRevision(REVISION).operationId(PAY)
              .argumentDigest(Digests.requestDigest(body)).idempotencyKey(new IdempotencyKey("pay-1"))
              .approvalRef("approval").issuedAt(now).expiresAt(now.plus(Duration.ofMinutes(5)))
              .nonce("nonce-1").audience("zeocore").issuer("authority"));
      EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, PAY, authorization,
          new EffectId("exec-check-1"), body, request -> {
            dispatches.incrementAndGet();
            return EffectDispatchResult.confirmed("0".repeat(64));
          }, request -> ReconciliationResult.unresolved("0".repeat(64)));

      Checks.require(result.state() == EffectState.SUCCEEDED, "state " + result.state());
      Checks.require(dispatches.get() == 1, "dispatches " + dispatches.get());
      Checks.require(store.getReceiptsForEffect(ORG, new EffectId("exec-check-1")).size() == 1, "one receipt");
      System.out.println("ok: one effect SUCCEEDED on a migrated SQLite store, dispatched once");
    }
  }

  private static ConnectorRevision revision() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("amountCents", Map.of("type", "integer"));
    return ConnectorRevision.builder(CONNECTOR, REVISION)
        .provider("ledger")
        .authentication("api_key", "GET /v1/account", "GET /v1/health", "header:Authorization")
        .policies("default", "1")
        .permittedUpstreamOrigin("https://ledger.example.com")
        .requiredProviderScope("payments:write")
        .operation(BusinessOperation.builder(PAY, EffectKind.FINANCIAL)
            .schemas(BusinessOperation.closedRequestSchema(properties), Map.of("type", "object"))
            .endpoint("https://ledger.example.com", "POST", "/v1/payments")
            .secretBinding("api_key")
            .redactionPath("$.amountCents")
            .idempotencyMode(IdempotencyMode.KERNEL_MANAGED)
            .reconciliationStrategy("lookup_by_execution_id")
            .build())
        .sizeLimits(16_384, 65_536)
        .timeout(Duration.ofSeconds(10))
        .riskClass(RiskClass.HIGH)
        .reconciliationMethod("lookup_by_execution_id")
        .build();
  }

  private static Connection connection() {
    Instant now = Instant.now();
    return Connection.builder()
        .connectionId(CONNECTION).organizationId(ORG)
        .connector(CONNECTOR, REVISION).identity("app", "account")
        .grantedProviderScope("payments:write").exposedBusinessOperation(PAY)
        .secretHandle(new SecretRef("ledger-credential"))
        .status(ConnectionStatus.ACTIVE).health(ConnectionHealth.HEALTHY)
        .createdAt(now).lastVerifiedAt(now)
        .build();
  }
}
