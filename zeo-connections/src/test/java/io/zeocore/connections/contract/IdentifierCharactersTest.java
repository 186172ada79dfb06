package io.zeocore.connections.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Identifiers refuse the characters that hide content or make two identifiers look alike, at the contract level. */
class IdentifierCharactersTest {

  private static final List<Function<String, Object>> IDENTIFIERS = List.of(AuthorizationId::new, ConnectionId::new,
      ConnectorId::new, ConnectorRevisionId::new, EffectId::new, IdempotencyKey::new, ReadId::new,
      OperationId::new, OrganizationId::new);

  @ParameterizedTest
  @ValueSource(strings = {"key\u0000", "key\u0007x", "a\nb", "\u202Eyek", "ke\u200By", "k\u200Dey", "\uFEFFkey",
      "key\u2066", "a\u2028b", "key\u200E"})
  void everyIdentifierRefusesControlBidiAndZeroWidthCharacters(String value) {
    for (Function<String, Object> identifier : IDENTIFIERS) {
      assertThatThrownBy(() -> identifier.apply(value)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageEndingWith("must not contain control, bidirectional, zero-width or line-separator characters")
          .hasMessageNotContaining(value);
    }
  }

  @Test
  void lookAlikesThatAreOrdinaryCharactersStayDistinctIdentifiers() {
    // Latin "a" and Cyrillic "а" are both letters: accepted, and never equal
    IdempotencyKey latin = new IdempotencyKey("pay-a1");
    IdempotencyKey cyrillic = new IdempotencyKey("pay-\u04301");
    assertThat(latin).isNotEqualTo(cyrillic);
    assertThat(new OrganizationId("acme")).isNotEqualTo(new OrganizationId("acme "));
  }
}
