package io.zeocore.connections.contract;

import io.zeocore.EffectKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.effect.DispatchDisposition;
import io.zeocore.connections.effect.ReconciliationDisposition;
import io.zeocore.connections.read.ReadDisposition;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every enum of the contracts writes and reads its own wire value with any mapper: a plain {@code JsonMapper}, one
 * configured as Spring Boot configures its bean, one with every enum feature turned against it, and
 * {@link ContractJson#mapper()}.
 */
class ContractEnumWireValuesTest {

  private static final List<Class<? extends Enum<?>>> CONTRACT_ENUMS = List.of(EffectKind.class,
      EffectState.class, NormalizedErrorCode.class, ConnectionStatus.class, ConnectionHealth.class, RiskClass.class,
      IdempotencyMode.class, AuthorizationRefusalReason.class, ReadState.class, DispatchDisposition.class,
      ReconciliationDisposition.class, ReadDisposition.class);

  private static final List<JsonMapper> MAPPERS = List.of(
      JsonMapper.builder().build(),
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build(),
      JsonMapper.builder().enable(EnumFeature.WRITE_ENUMS_TO_LOWERCASE, EnumFeature.WRITE_ENUMS_USING_TO_STRING,
          EnumFeature.READ_ENUMS_USING_TO_STRING)
          .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS).build(),
      JsonMapper.builder().enable(EnumFeature.WRITE_ENUMS_USING_INDEX).build(),
      ContractJson.mapper());

  static Stream<Arguments> everyConstantWithEveryMapper() {
    return CONTRACT_ENUMS.stream().flatMap(type -> Stream.of(type.getEnumConstants()))
        .flatMap(constant -> MAPPERS.stream().map(mapper -> Arguments.of(constant, mapper)));
  }

  private static String wireValue(Enum<?> constant) {
    return constant instanceof EffectKind kind ? kind.wireValue() : constant.name();
  }

  @ParameterizedTest
  @MethodSource("everyConstantWithEveryMapper")
  void everyContractEnumWritesAndReadsItsWireValueOnItsOwn(Enum<?> constant, JsonMapper mapper) {
    String json = "\"" + wireValue(constant) + "\"";

    assertThat(mapper.writeValueAsString(constant)).isEqualTo(json);
    assertThat(mapper.readValue(json, constant.getDeclaringClass())).isSameAs(constant);
  }

  @ParameterizedTest
  @MethodSource("everyConstantWithEveryMapper")
  void everyContractEnumRefusesAnyOtherSpelling(Enum<?> constant, JsonMapper mapper) {
    String wire = wireValue(constant);
    List<Function<String, String>> respellings = List.of(text -> text.toLowerCase(Locale.ROOT),
        text -> text.toUpperCase(Locale.ROOT), text -> " " + text, text -> text + "\n", text -> text.replace('_', '-'));
    for (Function<String, String> respell : respellings) {
      String other = respell.apply(wire);
      if (!other.equals(wire)) {
        assertThatThrownBy(() -> mapper.readValue("\"" + other + "\"", constant.getDeclaringClass())).as(other)
            .isInstanceOf(JacksonException.class);
      }
    }
    assertThatThrownBy(() -> mapper.readValue(String.valueOf(constant.ordinal()), constant.getDeclaringClass()))
        .isInstanceOf(JacksonException.class);
  }

  @org.junit.jupiter.api.Test
  void aMapperThatReadsUnknownEnumValuesAsNullStillCannotBuildAContractFromAnotherSpelling() {
    JsonMapper nulls = JsonMapper.builder().enable(EnumFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL).build();

    assertThatThrownBy(() -> nulls.readValue("{\"code\":\"stopped\",\"message\":\"m\"}", NormalizedError.class))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("code");
    assertThat(nulls.readValue("{\"code\":\"STOPPED\",\"message\":\"m\"}", NormalizedError.class).code())
        .isEqualTo(NormalizedErrorCode.STOPPED);
  }

  @ParameterizedTest
  @MethodSource("everyConstantWithEveryMapper")
  void effectKindReadsAndWritesLowercaseInsideAndOutsideContracts(Enum<?> constant, JsonMapper mapper) {
    if (constant instanceof EffectKind kind) {
      assertThat(mapper.writeValueAsString(List.of(kind))).isEqualTo("[\"" + kind.wireValue() + "\"]");
      assertThat(mapper.readValue("\"" + kind.wireValue() + "\"", EffectKind.class)).isSameAs(kind);
      assertThat(mapper.writeValueAsString(kind)).doesNotContain(kind.name());
    }
  }
}
