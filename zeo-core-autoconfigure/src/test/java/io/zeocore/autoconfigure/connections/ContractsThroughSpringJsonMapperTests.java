package io.zeocore.autoconfigure.connections;

import static io.zeocore.autoconfigure.connections.EffectFixtures.CONNECTION;
import static io.zeocore.autoconfigure.connections.EffectFixtures.CREATE_REFUND;
import static io.zeocore.autoconfigure.connections.EffectFixtures.ORG;
import static io.zeocore.autoconfigure.connections.EffectFixtures.REVISION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.EffectKind;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.SecretRef;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The connection contracts keep their wire format and stay closed when read by Spring Boot's own {@link JsonMapper}
 * bean, which an application's controllers and message converters use.
 */
class ContractsThroughSpringJsonMapperTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class));

  private static Connection connection() {
    Instant at = Instant.parse("2026-03-01T10:00:00.123456Z");
    return new Connection(CONNECTION, ORG, new ConnectorId("stripe"), REVISION, "default-app", "acct_123", List.of(),
        List.of("refunds:write"), List.of(CREATE_REFUND),
        new SecretRef("zc0-kc:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a"), ConnectionStatus.ACTIVE, ConnectionHealth.HEALTHY, at, at, null);
  }

  @Test
  void springsJsonMapperRefusesUnknownFieldsOnContracts() {
    runner.run(context -> {
      JsonMapper spring = context.getBean(JsonMapper.class);
      assertThat(spring.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)).isFalse();

      ObjectNode connection = (ObjectNode) ContractJson.storeDocumentMapper().valueToTree(connection());
      assertThat(spring.readValue(spring.writeValueAsString(connection), Connection.class)).isEqualTo(connection());
      connection.put("callback_url", "https://evil.example.com/hook");
      assertThatThrownBy(() -> spring.readValue(spring.writeValueAsString(connection), Connection.class))
          .isInstanceOf(UnrecognizedPropertyException.class)
          .hasMessageContaining("callback_url");

      ObjectNode authorization = (ObjectNode) ContractJson.mapper()
          .valueToTree(EffectFixtures.authorization("n1", "idem-1"));
      authorization.put("auth_header", "Bearer x");
      assertThatThrownBy(() -> spring.readValue(spring.writeValueAsString(authorization), EffectAuthorization.class))
          .isInstanceOf(UnrecognizedPropertyException.class)
          .hasMessageContaining("auth_header");
    });
  }

  @Test
  void springsJsonMapperWritesAndReadsContractEnumWireValues() {
    runner.run(context -> {
      JsonMapper spring = context.getBean(JsonMapper.class);

      assertThat(spring.writeValueAsString(EffectKind.EXTERNAL_COMMUNICATION)).isEqualTo("\"external_communication\"");
      assertThat(spring.readValue("\"external_communication\"", EffectKind.class))
          .isEqualTo(EffectKind.EXTERNAL_COMMUNICATION);
      assertThat(spring.writeValueAsString(EffectState.DISPATCH_STARTED)).isEqualTo("\"DISPATCH_STARTED\"");
      assertThat(spring.readValue("\"DISPATCH_STARTED\"", EffectState.class))
          .isEqualTo(EffectState.DISPATCH_STARTED);
    });
  }
}
