package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.authorization;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class AuthorizationCanonicalFormTest {

  @Test
  void writesSortedKeysWithoutWhitespaceAndMicrosecondInstants() {
    String payload = new String(AuthorizationCanonicalForm.signingPayload(authorization()), StandardCharsets.UTF_8);

    assertThat(payload).isEqualTo("{\"approval_refs\":[\"approval-1\"],"
        + "\"argument_digest\":\"" + Digests.requestDigest(ContractFixtures.BODY) + "\","
        + "\"attempt_id\":\"attempt-1\",\"audience\":\"zeocore\",\"authorization_id\":{\"value\":\"auth-1\"},"
        + "\"connection_id\":{\"value\":\"conn-1\"},\"connector_revision\":{\"value\":\"stripe-r1\"},"
        + "\"expires_at\":\"2026-03-01T10:05:00.123456Z\",\"idempotency_key\":{\"value\":\"idem-1\"},"
        + "\"issued_at\":\"2026-03-01T10:00:00.123456Z\",\"issuer\":\"zeo-go\",\"nonce\":\"nonce-1\","
        + "\"operation_id\":{\"value\":\"create_refund\"},\"organization_id\":{\"value\":\"org-1\"},"
        + "\"packet_id\":\"packet-1\",\"runtime_binding_id\":\"binding-1\",\"seat_id\":\"seat-1\"}");
  }

  @Test
  void sameAuthorizationGivesTheSameBytesWhateverTheFieldOrderOfItsSource() {
    EffectAuthorization original = authorization();
    ObjectNode tree = (ObjectNode) ContractJson.mapper().valueToTree(original);
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(tree.properties());
    Collections.shuffle(entries, new Random(7));
    ObjectNode shuffled = ContractJson.mapper().createObjectNode();
    entries.forEach(entry -> shuffled.set(entry.getKey(), entry.getValue()));
    assertThat(new ArrayList<>(shuffled.propertyNames())).isNotEqualTo(new ArrayList<>(tree.propertyNames()));

    EffectAuthorization reread = ContractJson.mapper()
        .readValue(ContractJson.mapper().writeValueAsString(shuffled), EffectAuthorization.class);

    assertThat(AuthorizationCanonicalForm.signingPayload(reread))
        .isEqualTo(AuthorizationCanonicalForm.signingPayload(original))
        .isEqualTo(AuthorizationCanonicalForm.signingPayload(authorization()));
    assertThat(AuthorizationCanonicalForm.document(reread)).isEqualTo(AuthorizationCanonicalForm.document(original));
    assertThat(Digests.authorizationDigest(reread)).isEqualTo(Digests.authorizationDigest(original));
  }

  @Test
  void signingPayloadExcludesTheSignatureAndTheDocumentIncludesIt() {
    EffectAuthorization a = authorization();
    EffectAuthorization resigned = a.withSignature("b3RoZXI");

    assertThat(new String(AuthorizationCanonicalForm.signingPayload(a), StandardCharsets.UTF_8))
        .doesNotContain("signature");
    assertThat(AuthorizationCanonicalForm.signingPayload(resigned))
        .isEqualTo(AuthorizationCanonicalForm.signingPayload(a));
    assertThat(new String(AuthorizationCanonicalForm.document(a), StandardCharsets.UTF_8))
        .endsWith("\"seat_id\":\"seat-1\",\"signature\":\"c2lnbmF0dXJl\"}");
    assertThat(Digests.authorizationDigest(resigned)).isNotEqualTo(Digests.authorizationDigest(a))
        .matches("sha256:[0-9a-f]{64}");
  }

  @Test
  void writesNonAsciiAsUtf8AndEscapesOnlyWhatJsonRequires() {
    EffectAuthorization a = authorization();
    EffectAuthorization unicode = new EffectAuthorization(a.authorizationId(), a.organizationId(), a.seatId(),
        a.runtimeBindingId(), a.packetId(), a.attemptId(), a.connectionId(), a.connectorRevision(), a.operationId(),
        a.argumentDigest(), a.idempotencyKey(), List.of("grüße/\"q\"\u0001"), a.issuedAt(), a.expiresAt(), a.nonce(),
        a.audience(), a.issuer(), a.signature());

    byte[] payload = AuthorizationCanonicalForm.signingPayload(unicode);

    assertThat(new String(payload, StandardCharsets.UTF_8))
        .startsWith("{\"approval_refs\":[\"grüße/\\\"q\\\"\\u0001\"]");
  }

  @Test
  void requestDigestIsSha256OfTheRawBytes() {
    assertThat(Digests.requestDigest("abc".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(Digests.requestDigest("{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
        .isNotEqualTo(Digests.requestDigest("{ \"a\":1}".getBytes(StandardCharsets.UTF_8)));
    assertThat(Digests.sha256Hex("reconciliation-unavailable".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("a762ee13beb81030908d9ae101aed878102db252b17be3bbbd2d5585a3aa5592");
    assertThat(Digests.isPrefixedSha256(Digests.requestDigest(new byte[0]))).isTrue();
    assertThat(Digests.isBareSha256(Digests.sha256Hex(new byte[0]))).isTrue();
  }
}
