package io.zeocore.connections.contract;

import io.zeocore.EffectKind;
import static io.zeocore.connections.contract.ContractFixtures.AUTHORIZATION;
import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTOR;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.LIST_FILES;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static io.zeocore.connections.contract.ContractFixtures.closedSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.zeocore.InvalidFieldException;
import io.zeocore.connections.admission.ConnectorAdmission;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builders of the records users write by hand build exactly what the positional constructors build. */
class ContractBuildersTest {

  @Test
  void closedRequestSchemaIsTheClosedObjectAdmissionAcceptsWithThePropertiesInTheirOrder() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("zeta", Map.of("type", "integer"));
    properties.put("alpha", Map.of("type", "string"));

    Map<String, Object> schema = BusinessOperation.closedRequestSchema(properties);
    properties.put("added_later", Map.of("type", "string"));

    assertThat(schema).containsExactly(entry("type", "object"), entry("additionalProperties", false),
        entry("properties", Map.of("zeta", Map.of("type", "integer"), "alpha", Map.of("type", "string"))));
    assertThat(List.copyOf(((Map<?, ?>) schema.get("properties")).keySet())).isEqualTo(List.of("zeta", "alpha"));
    BusinessOperation operation = BusinessOperation.builder(CREATE_REFUND, EffectKind.FINANCIAL)
        .schemas(schema, Map.of("type", "object")).endpoint("https://api.stripe.com", "POST", "/v1/refunds")
        .secretBinding("api_key").redactionPath("$.id").idempotencyMode(IdempotencyMode.PROVIDER_NATIVE)
        .reconciliationStrategy("lookup_by_idempotency_key").build();
    assertThatCode(() -> ConnectorAdmission.validateConnectorRevision(ContractFixtures.revision(List.of(operation))))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> BusinessOperation.closedRequestSchema(null))
        .isInstanceOf(InvalidFieldException.class).hasMessage("properties is required");
  }

  @Test
  void businessOperationBuilderBuildsTheSameOperationAsTheConstructor() {
    BusinessOperation refund = BusinessOperation.builder(CREATE_REFUND, EffectKind.FINANCIAL)
        .schemas(closedSchema("amount", "charge"), Map.of("type", "object"))
        .endpoint("https://api.stripe.com", "POST", "/v1/refunds")
        .secretBinding("api_key").redactionPath("$.id")
        .idempotencyMode(IdempotencyMode.PROVIDER_NATIVE).reconciliationStrategy("lookup_by_idempotency_key")
        .build();
    BusinessOperation files = BusinessOperation.builder(LIST_FILES, EffectKind.READ)
        .schemas(closedSchema("folder"), Map.of("type", "object"))
        .endpoint("https://api.stripe.com", "GET", "/v1/files/{folder}")
        .idempotencyMode(IdempotencyMode.NOT_IDEMPOTENT).resourceArgument("folder").build();

    assertThat(refund).isEqualTo(ContractFixtures.refundOperation());
    assertThat(files).isEqualTo(ContractFixtures.listFilesOperation());
  }

  @Test
  void connectorRevisionBuilderBuildsTheSameRevisionAsTheConstructor() {
    ConnectorRevision built = ConnectorRevision.builder(CONNECTOR, REVISION)
        .provider("stripe")
        .authentication("api_key", "GET /v1/account", "GET /v1/balance", "header:Authorization")
        .policies("default", "1")
        .permittedUpstreamOrigin("https://api.stripe.com").requiredProviderScope("refunds:write")
        .operation(ContractFixtures.refundOperation()).operation(ContractFixtures.listFilesOperation())
        .sizeLimits(65_536, 1_048_576).timeout(Duration.ofSeconds(30)).riskClass(RiskClass.HIGH)
        .providerSupportsNativeIdempotency(true).reconciliationMethod("by_idempotency_key")
        .conformanceFixtureId("fixture-1")
        .build();

    assertThat(built).isEqualTo(ContractFixtures.revision());
  }

  @Test
  void effectAuthorizationBuilderBuildsTheSameAuthorizationAsTheConstructor() {
    EffectAuthorization.Builder builder = EffectAuthorization.builder()
        .authorizationId(AUTHORIZATION).organizationId(ORG)
        .seatId("seat-1").runtimeBindingId("binding-1").packetId("packet-1").attemptId("attempt-1")
        .connectionId(CONNECTION).connectorRevision(REVISION).operationId(CREATE_REFUND)
        .argumentDigest(Digests.requestDigest(BODY)).idempotencyKey(KEY).approvalRef("approval-1")
        .issuedAt(T).expiresAt(T.plusSeconds(300)).nonce("nonce-1")
        .audience("zeocore").issuer("zeo-go").signature("c2lnbmF0dXJl");

    assertThat(builder.build()).isEqualTo(ContractFixtures.authorization());
    assertThat(builder.build()).isNotSameAs(builder.build()).isEqualTo(builder.build()); // reusable
    assertThat(builder.approvalRef("approval-2").build().approvalRefs()).containsExactly("approval-1", "approval-2");
    assertThat(EffectAuthorization.builder().authorizationId(AUTHORIZATION).organizationId(ORG)
        .seatId("seat-1").runtimeBindingId("binding-1").packetId("packet-1").attemptId("attempt-1")
        .connectionId(CONNECTION).connectorRevision(REVISION).operationId(CREATE_REFUND)
        .argumentDigest(Digests.requestDigest(BODY)).idempotencyKey(KEY)
        .issuedAt(T).expiresAt(T.plusSeconds(300)).nonce("nonce-1")
        .audience("zeocore").issuer("zeo-go").signature("c2lnbmF0dXJl").build().approvalRefs())
        .as("approval references start empty").isEmpty();
  }

  @Test
  void connectionBuilderBuildsTheSameConnectionAsTheConstructor() {
    Connection.Builder builder = Connection.builder().connectionId(CONNECTION).organizationId(ORG)
        .connector(CONNECTOR, REVISION).identity("default-app", "acct_123")
        .selectedBusinessResource("folder-a").grantedProviderScope("refunds:write")
        .exposedBusinessOperation(CREATE_REFUND).exposedBusinessOperation(LIST_FILES)
        .secretHandle(new SecretRef(ContractFixtures.SECRET_HANDLE))
        .status(ConnectionStatus.ACTIVE).health(ConnectionHealth.HEALTHY)
        .createdAt(T).lastVerifiedAt(T.plusSeconds(60));

    assertThat(builder.build()).isEqualTo(ContractFixtures.connection());
    Connection plain = Connection.builder().connectionId(CONNECTION).organizationId(ORG)
        .connector(CONNECTOR, REVISION).identity("default-app", "acct_123")
        .secretHandle(new SecretRef(ContractFixtures.SECRET_HANDLE)).status(ConnectionStatus.ACTIVE).createdAt(T)
        .build();
    assertThat(plain.selectedBusinessResources()).isEmpty();
    assertThat(plain.exposedBusinessOperations()).isEmpty();
    assertThat(plain.health()).isEqualTo(ConnectionHealth.UNKNOWN);
    assertThat(plain.lastVerifiedAt()).isNull();
    assertThatThrownBy(() -> builder.status(ConnectionStatus.REVOKED).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("REVOKED connection must carry revoked_at");
    assertThat(builder.revokedAt(T.plusSeconds(90)).build().status()).isEqualTo(ConnectionStatus.REVOKED);
    assertThatThrownBy(() -> builder.exposedBusinessOperation(CREATE_REFUND).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("duplicate operation_id in exposed_business_operations");
  }

  @Test
  void effectAuthorizationBuilderAppliesTheRecordsRules() {
    assertThatThrownBy(() -> EffectAuthorization.builder().authorizationId(AUTHORIZATION).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("organization_id");
    EffectAuthorization.Builder backwards = EffectAuthorization.builder().authorizationId(AUTHORIZATION)
        .organizationId(ORG).seatId("s").runtimeBindingId("b").packetId("p").attemptId("a")
        .connectionId(CONNECTION).connectorRevision(REVISION).operationId(CREATE_REFUND)
        .argumentDigest(Digests.requestDigest(BODY)).idempotencyKey(KEY)
        .issuedAt(T).expiresAt(T).nonce("n").audience("zeocore").issuer("zeo-go").signature("sig");
    assertThatThrownBy(backwards::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expires_at must be strictly after issued_at");
  }

  @Test
  void aBrokenRuleIsATypedErrorNamingTheWireFieldAndTheRule() {
    assertThatThrownBy(() -> ConnectorRevision.builder(CONNECTOR, REVISION).provider("stripe")
        .authentication("api_key", "GET /v1/account", "GET /v1/balance", "header:Authorization")
        .policies("default", "1").permittedUpstreamOrigin("https://api.stripe.com")
        .operation(ContractFixtures.refundOperation()).sizeLimits(0, 1).timeout(Duration.ofSeconds(30))
        .riskClass(RiskClass.HIGH).build())
        .isInstanceOfSatisfying(InvalidFieldException.class, invalid -> {
          assertThat(invalid.field()).isEqualTo("request_size_limit_bytes");
          assertThat(invalid.rule()).isEqualTo("must be greater than zero");
        }).hasMessage("request_size_limit_bytes must be greater than zero");
  }

  @Test
  void buildersApplyTheRecordsRulesNamingTheWireField() {
    assertThatThrownBy(() -> ConnectorRevision.builder(CONNECTOR, REVISION).provider("stripe").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("authentication_profile");
    assertThatThrownBy(() -> BusinessOperation.builder(CREATE_REFUND, EffectKind.FINANCIAL)
        .schemas(closedSchema("amount"), Map.of("type", "object")).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed_origin");
  }
}
