package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.authorization;
import static io.zeocore.connections.contract.ContractFixtures.connection;
import static io.zeocore.connections.contract.ContractFixtures.effect;
import static io.zeocore.connections.contract.ContractFixtures.succeededReceipt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every contract refuses a field it does not declare whatever mapper reads it: a plain {@code JsonMapper} (Jackson 3
 * ignores unknown properties by default), one with {@code FAIL_ON_UNKNOWN_PROPERTIES} disabled as Spring Boot
 * configures its bean, and one that explicitly enables it.
 */
class ContractsAreClosedTest {

  private static final JsonMapper STORE = ContractJson.storeDocumentMapper();
  private static final JsonMapper PLAIN = JsonMapper.builder().build();
  private static final JsonMapper SPRING_LIKE = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .build();
  private static final JsonMapper STRICT = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  static Stream<Arguments> everyContractWithEveryMapper() {
    return ContractJsonTest.everyContract().flatMap(contract -> Stream.of(PLAIN, SPRING_LIKE, STRICT)
        .map(mapper -> Arguments.of(contract, mapper)));
  }

  @Test
  void plainJacksonThreeMapperIgnoresUnknownPropertiesByDefault() {
    // the premise: without the contracts' own guard, these mappers would drop the field silently
    assertThat(PLAIN.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)).isFalse();
    assertThat(SPRING_LIKE.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)).isFalse();
  }

  @ParameterizedTest
  @MethodSource("everyContractWithEveryMapper")
  void everyContractReadsItsOwnDocumentWithAnyMapper(Object contract, JsonMapper mapper) {
    assertThat(mapper.readValue(STORE.writeValueAsString(contract), contract.getClass())).isEqualTo(contract);
  }

  @ParameterizedTest
  @MethodSource("everyContractWithEveryMapper")
  void everyContractRefusesUnknownFieldsWhateverMapperReadsIt(Object contract, JsonMapper mapper) {
    ObjectNode tree = (ObjectNode) STORE.valueToTree(contract);
    tree.put("unexpected_field", "x");

    assertThatThrownBy(() -> mapper.readValue(STORE.writeValueAsString(tree), contract.getClass()))
        .isInstanceOf(UnrecognizedPropertyException.class)
        .hasMessageContaining("unexpected_field")
        .hasMessageContaining(contract.getClass().getSimpleName());
  }

  @Test
  void refusesTheIssuesExamplesWithAPlainAndASpringConfiguredMapper() {
    for (JsonMapper mapper : List.of(PLAIN, SPRING_LIKE)) {
      assertRefused(mapper, connection(), "callback_url", Connection.class);
      assertRefused(mapper, authorization(), "auth_header", EffectAuthorization.class);
      assertRefused(mapper, succeededReceipt(), "organization_override", EffectReceipt.class);
    }
  }

  @Test
  void refusesUnknownFieldsInNestedContractsWithAPlainMapper() {
    ObjectNode tree = (ObjectNode) STORE.valueToTree(effect(EffectState.CREATED));
    ((ObjectNode) tree.get("organization_id")).put("tenant", "other");

    for (JsonMapper mapper : List.of(PLAIN, SPRING_LIKE)) {
      assertThatThrownBy(() -> mapper.readValue(STORE.writeValueAsString(tree), EffectRecord.class))
          .isInstanceOf(UnrecognizedPropertyException.class)
          .hasMessageContaining("tenant");
    }
  }

  private static void assertRefused(JsonMapper mapper, Object contract, String field, Class<?> type) {
    ObjectNode tree = (ObjectNode) STORE.valueToTree(contract);
    tree.put(field, "https://evil.example.com/hook");

    assertThatThrownBy(() -> mapper.readValue(STORE.writeValueAsString(tree), type)).as(field)
        .isInstanceOf(UnrecognizedPropertyException.class)
        .hasMessageContaining(field);
  }
}
