package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.authorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Signature;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@link AuthorizationCanonicalForm} is byte-exact RFC 8785 (JCS): the RFC's own examples (sections 3.2.2 and 3.2.3,
 * appendix B), every control character, characters outside the BMP and the number forms.
 */
class CanonicalJsonRfc8785Test {

  private static final JsonMapper PLAIN = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static String canonical(String json) {
    return new String(AuthorizationCanonicalForm.canonicalize(PLAIN.readTree(json)), StandardCharsets.UTF_8);
  }

  @Test
  void reproducesTheRfc8785Section322SampleByteForByte() {
    String input = "{\n"
        + "  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
        + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
        + "  \"literals\": [null, true, false]\n"
        + "}";

    byte[] bytes = AuthorizationCanonicalForm.canonicalize(PLAIN.readTree(input));

    assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
            + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    assertThat(HexFormat.ofDelimiter(" ").formatHex(bytes)).isEqualTo(
        "7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72 75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65"
            + " 72 73 22 3a 5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31 65 2b 33 30 2c 34 2e 35 2c 30"
            + " 2e 30 30 32 2c 31 65 2d 32 37 5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30 30 66 5c 6e"
            + " 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d");
  }

  @Test
  void sortsPropertiesByUtf16CodeUnitsAsRfc8785Section323() {
    String input = "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\","
        + "\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\","
        + "\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
        + "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}";

    assertThat(canonical(input)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
        + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
        + "\"\ud83d\ude00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "0000000000000000, 0",
      "8000000000000000, 0",
      "0000000000000001, 5e-324",
      "8000000000000001, -5e-324",
      "7fefffffffffffff, 1.7976931348623157e+308",
      "ffefffffffffffff, -1.7976931348623157e+308",
      "4340000000000000, 9007199254740992",
      "c340000000000000, -9007199254740992",
      "4430000000000000, 295147905179352830000",
      "44b52d02c7e14af5, 9.999999999999997e+22",
      "44b52d02c7e14af6, 1e+23",
      "44b52d02c7e14af7, 1.0000000000000001e+23",
      "444b1ae4d6e2ef4e, 999999999999999700000",
      "444b1ae4d6e2ef4f, 999999999999999900000",
      "444b1ae4d6e2ef50, 1e+21",
      "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
      "3eb0c6f7a0b5ed8d, 0.000001",
      "41b3de4355555553, 333333333.3333332",
      "41b3de4355555554, 333333333.33333325",
      "41b3de4355555555, 333333333.3333333",
      "41b3de4355555556, 333333333.3333334",
      "41b3de4355555557, 333333333.33333343",
      "becbf647612f3696, -0.0000033333333333333333",
      "43143ff3c1cb0959, 1424953923781206.2"})
  void writesTheRfc8785AppendixBNumberSamples(String ieee754, String expected) {
    double value = Double.longBitsToDouble(Long.parseUnsignedLong(ieee754, 16));

    assertThat(AuthorizationCanonicalForm.number(value)).isEqualTo(expected);
    assertThat(new String(AuthorizationCanonicalForm.canonicalize(NODES.numberNode(value)), StandardCharsets.UTF_8))
        .isEqualTo(expected);
  }

  @Test
  void refusesTheAppendixBNanAndInfinitySamples() {
    for (String ieee754 : List.of("7fffffffffffffff", "7ff0000000000000", "fff0000000000000")) {
      double value = Double.longBitsToDouble(Long.parseUnsignedLong(ieee754, 16));
      assertThatThrownBy(() -> AuthorizationCanonicalForm.canonicalize(NODES.numberNode(value))).as(ieee754)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void writesEveryNumberFormAsEcmaScriptDoes() {
    assertThat(canonical("[1, -1, 100, 1.0, 4.50, 1e20, 1e21, 1e-6, 1e-7, 123e-9, 0.1, -0.0, 1.5e300, 12345678.9]"))
        .isEqualTo("[1,-1,100,1,4.5,100000000000000000000,1e+21,0.000001,1e-7,1.23e-7,0.1,0,1.5e+300,12345678.9]");
    // integers and exact decimals are read as the double they denote, as every JCS issuer does
    assertThat(canonical("[9007199254740993, 18446744073709551616, 2.5000000000000000001]"))
        .isEqualTo("[9007199254740992,18446744073709552000,2.5]");
    JsonMapper bigDecimals = JsonMapper.builder()
        .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    assertThat(new String(AuthorizationCanonicalForm.canonicalize(bigDecimals.readTree("[0.1, 1E30, 2e-3]")),
        StandardCharsets.UTF_8)).isEqualTo("[0.1,1e+30,0.002]");
    assertThat(canonical("[2.2250738585072014e-308, 4.9e-324, 0.30000000000000004]"))
        .isEqualTo("[2.2250738585072014e-308,5e-324,0.30000000000000004]");
  }

  @Test
  void escapesEveryControlCharacterInLowercaseHexAndNothingElse() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      all.append(c);
    }
    all.append("\u007f\u2028\u2029</script>'");

    String written = new String(AuthorizationCanonicalForm.canonicalize(NODES.stringNode(all.toString())),
        StandardCharsets.UTF_8);

    assertThat(written).isEqualTo("\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
        + "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c"
        + "\\u001d\\u001e\\u001f\u007f\u2028\u2029</script>'\"");
    assertThat(written).doesNotContainPattern("\\\\u00[0-9a-f]?[A-F]");
  }

  @Test
  void writesCharactersOutsideTheBmpAsRawUtf8AndRefusesLoneSurrogates() {
    byte[] emoji = AuthorizationCanonicalForm.canonicalize(NODES.stringNode("a\ud83d\ude00\ud834\udd1e"));

    assertThat(HexFormat.of().formatHex(emoji)).isEqualTo("22" + "61" + "f09f9880" + "f09d849e" + "22");
    for (String lone : List.of("\ud83d", "x\ude00", "\ude00\ud83d", "\ud83dx")) {
      assertThatThrownBy(() -> AuthorizationCanonicalForm.canonicalize(NODES.stringNode(lone)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("lone surrogate");
    }
  }

  @Test
  void authorizationSignedByANonJavaIssuerOverAControlCharacterVerifies() throws Exception {
    EffectAuthorization base = authorization();
    EffectAuthorization withControl = new EffectAuthorization(base.authorizationId(), base.organizationId(),
        base.seatId(), base.runtimeBindingId(), base.packetId(), base.attemptId(), base.connectionId(),
        base.connectorRevision(), base.operationId(), base.argumentDigest(), base.idempotencyKey(),
        List.of("ticket\u001fpart\u00e9\ud83d\ude00"), base.issuedAt(), base.expiresAt(), base.nonce(),
        base.audience(), base.issuer(), base.signature());
    // exactly what an RFC 8785 implementation in another language produces for this authorization
    String issuerBytes = "{\"approval_refs\":[\"ticket\\u001fpart\u00e9\ud83d\ude00\"],"
        + "\"argument_digest\":\"" + base.argumentDigest() + "\","
        + "\"attempt_id\":\"attempt-1\",\"audience\":\"zeocore\",\"authorization_id\":{\"value\":\"auth-1\"},"
        + "\"connection_id\":{\"value\":\"conn-1\"},\"connector_revision\":{\"value\":\"stripe-r1\"},"
        + "\"expires_at\":\"2026-03-01T10:05:00.123456Z\",\"idempotency_key\":{\"value\":\"idem-1\"},"
        + "\"issued_at\":\"2026-03-01T10:00:00.123456Z\",\"issuer\":\"zeo-go\",\"nonce\":\"nonce-1\","
        + "\"operation_id\":{\"value\":\"create_refund\"},\"organization_id\":{\"value\":\"org-1\"},"
        + "\"packet_id\":\"packet-1\",\"runtime_binding_id\":\"binding-1\",\"seat_id\":\"seat-1\"}";
    assertThat(AuthorizationCanonicalForm.signingPayload(withControl))
        .isEqualTo(issuerBytes.getBytes(StandardCharsets.UTF_8));

    KeyPair issuer = Ed25519Keys.generate();
    Signature signer = Signature.getInstance("Ed25519");
    signer.initSign(issuer.getPrivate());
    signer.update(issuerBytes.getBytes(StandardCharsets.UTF_8));
    EffectAuthorization signed = withControl.withSignature(
        Base64.getUrlEncoder().withoutPadding().encodeToString(signer.sign()));

    assertThat(Ed25519SignatureVerifier.of("zeo-go", issuer.getPublic()).verifySignature(signed)).isTrue();
  }

  @Test
  void refusesNodesThatAreNotJson() {
    JsonNode binary = NODES.binaryNode(new byte[] {1, 2});
    JsonNode pojo = NODES.pojoNode(new Object());

    assertThatThrownBy(() -> AuthorizationCanonicalForm.canonicalize(binary))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AuthorizationCanonicalForm.canonicalize(pojo))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
