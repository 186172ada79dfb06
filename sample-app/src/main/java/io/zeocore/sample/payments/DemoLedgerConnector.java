package io.zeocore.sample.payments;

import io.zeocore.EffectKind;
import io.zeocore.connections.admission.ConnectorAdmission;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.store.ConnectionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Admits the demo ledger's connector revision and the demo organization's connection into the store at start-up (once:
 * revisions are immutable). In a real deployment these come from your connector catalogue and onboarding flow.
 */
@Component
public class DemoLedgerConnector implements ApplicationRunner {

  public static final OrganizationId ORGANIZATION = new OrganizationId("demo-org");
  public static final ConnectorId CONNECTOR = new ConnectorId("demo-ledger");
  public static final ConnectorRevisionId REVISION = new ConnectorRevisionId("demo-ledger-r1");
  public static final ConnectionId CONNECTION = new ConnectionId("demo-ledger-connection");
  public static final OperationId POST_PAYMENT = new OperationId("post_payment");

  private final ConnectionStore store;

  public DemoLedgerConnector(ConnectionStore store) {
    this.store = store;
  }

  @Override
  public void run(ApplicationArguments args) {
    ConnectorRevision revision = revision();
    // the same admission rules the orchestrator applies before every effect, checked once at start-up
    ConnectorAdmission.validateConnectorRevision(revision);
    if (store.getConnectorRevision(ORGANIZATION, REVISION).isEmpty()) {
      store.saveConnectorRevision(ORGANIZATION, revision);
    }
    if (store.getConnection(ORGANIZATION, CONNECTION).isEmpty()) {
      Connection connection = connection();
      ConnectorAdmission.validateConnectionAdmission(connection, revision);
      store.saveConnection(ORGANIZATION, connection);
    }
  }

  static ConnectorRevision revision() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("amountCents", Map.of("type", "integer"));
    properties.put("reference", Map.of("type", "string"));
    properties.put("simulate", Map.of("type", "string"));
    BusinessOperation postPayment = BusinessOperation.builder(POST_PAYMENT, EffectKind.FINANCIAL)
        .schemas(BusinessOperation.closedRequestSchema(properties), Map.of("type", "object"))
        .endpoint("https://ledger.example.com", "POST", "/v1/payments")
        .secretBinding("api_key")
        .redactionPath("$.reference")
        .idempotencyMode(IdempotencyMode.KERNEL_MANAGED)
        .reconciliationStrategy("lookup_by_execution_id")
        .build();
    return ConnectorRevision.builder(CONNECTOR, REVISION)
        .provider("demo-ledger")
        .authentication("api_key", "GET /v1/account", "GET /v1/health", "header:Authorization")
        .policies("default", "1")
        .permittedUpstreamOrigin("https://ledger.example.com")
        .requiredProviderScope("payments:write")
        .operation(postPayment)
        .sizeLimits(16_384, 65_536)
        .timeout(Duration.ofSeconds(10))
        .riskClass(RiskClass.HIGH)
        .reconciliationMethod("lookup_by_execution_id")
        .build();
  }

  static Connection connection() {
    Instant now = Instant.now();
    return Connection.builder()
        .connectionId(CONNECTION).organizationId(ORGANIZATION)
        .connector(CONNECTOR, REVISION).identity("demo-app", "demo-account")
        .grantedProviderScope("payments:write").exposedBusinessOperation(POST_PAYMENT)
        .secretHandle(new SecretRef("demo-ledger-credential"))
        .status(ConnectionStatus.ACTIVE).health(ConnectionHealth.HEALTHY)
        .createdAt(now).lastVerifiedAt(now)
        .build();
  }
}
