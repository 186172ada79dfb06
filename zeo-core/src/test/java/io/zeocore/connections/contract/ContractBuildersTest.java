package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.CONNECTOR;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.LIST_FILES;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.closedSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builders of the records users write by hand build exactly what the positional constructors build. */
class ContractBuildersTest {

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
  void buildersApplyTheRecordsRulesNamingTheWireField() {
    assertThatThrownBy(() -> ConnectorRevision.builder(CONNECTOR, REVISION).provider("stripe").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("authentication_profile");
    assertThatThrownBy(() -> BusinessOperation.builder(CREATE_REFUND, EffectKind.FINANCIAL)
        .schemas(closedSchema("amount"), Map.of("type", "object")).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed_origin");
  }
}
