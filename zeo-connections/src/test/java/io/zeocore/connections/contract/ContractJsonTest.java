package io.zeocore.connections.contract;

import io.zeocore.connections.effect.EffectDispatchRequest;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.read.ReadDispatchResult;
import io.zeocore.connections.read.ReadResult;
import io.zeocore.connections.store.EffectClaim;
import io.zeocore.connections.store.ReadClaim;
import static io.zeocore.connections.contract.ContractFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class ContractJsonTest {

  private static final JsonMapper MAPPER = ContractJson.mapper();
  private static final JsonMapper STORE = ContractJson.storeDocumentMapper();

  static Stream<Object> everyContract() {
    return Stream.of(
        ORG, CONNECTION, CONNECTOR, REVISION, CREATE_REFUND, EXECUTION, AUTHORIZATION, KEY,
        new ReadId("obs-1"), new ReadArtifactRef(ARTIFACT_REF), new ConfirmationEvidenceRef(EVIDENCE_REF),
        new SecretRef(SECRET_HANDLE),
        refundOperation(), listFilesOperation(), revision(), connection(), authorization(),
        effect(EffectState.CREATED), effect(EffectState.SUCCEEDED), effect(EffectState.AMBIGUOUS),
        new NormalizedError(NormalizedErrorCode.RATE_LIMITED, "slow down", "detail"),
        succeededReceipt(), resolvingReceipt(), ambiguousAttemptReceipt(), evidence(),
        EffectDispatchResult.confirmed(HEX),
        EffectDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "refused")),
        ReconciliationResult.confirmed(HEX, "c".repeat(64)), ReconciliationResult.unresolved(HEX),
        ReconciliationResult.failedSafe(HEX, new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "no effect")),
        new EffectResult(EffectState.SUCCEEDED, EXECUTION, null),
        new EffectResult(EffectState.REFUSED, null, AuthorizationRefusalReason.ABSENT),
        AuthorizationVerdict.authorized(ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, "sha256:" + HEX, T),
        AuthorizationVerdict.refused(AuthorizationRefusalReason.EXPIRED, T),
        artifact(), read(ReadState.CLAIMED), read(ReadState.CONFIRMED),
        inlineReadReceipt(),
        ReadDispatchResult.artifact(artifact()), ReadDispatchResult.inline(List.of(1, "two")),
        new ReadResult(ReadState.CONFIRMED, new ReadId("obs-1"),
            inlineReadReceipt(), null),
        ReadResult.refused(AuthorizationRefusalReason.REPLAYED),
        new EffectClaim(effect(EffectState.DISPATCH_STARTED), true),
        new ReadClaim(read(ReadState.CLAIMED), false));
  }

  @ParameterizedTest
  @MethodSource("everyContract")
  void storeDocumentsRoundTripEveryContract(Object contract) {
    String json = STORE.writeValueAsString(contract);

    assertThat(STORE.readValue(json, contract.getClass())).isEqualTo(contract);
    assertThat(MAPPER.readValue(json, contract.getClass())).isEqualTo(contract);
  }

  @ParameterizedTest
  @MethodSource("everyContract")
  void contractMapperRoundTripsEveryContractWithoutSecretRef(Object contract) {
    String json = MAPPER.writeValueAsString(contract);
    if (json.contains(SecretRef.REDACTED)) {
      assertThatThrownBy(() -> MAPPER.readValue(json, contract.getClass()))
          .isInstanceOf(JacksonException.class)
          .hasMessageContaining("redaction placeholder");
    } else {
      assertThat(MAPPER.readValue(json, contract.getClass())).isEqualTo(contract);
    }
  }

  @ParameterizedTest
  @MethodSource("everyContract")
  void rejectsUnknownFieldsOnEveryContract(Object contract) {
    ObjectNode tree = (ObjectNode) STORE.valueToTree(contract);
    tree.put("unexpected_field", "x");
    String json = STORE.writeValueAsString(tree);

    assertThatThrownBy(() -> MAPPER.readValue(json, contract.getClass()))
        .isInstanceOf(UnrecognizedPropertyException.class)
        .hasMessageContaining("unexpected_field");
  }

  @Test
  void rejectsUnknownFieldsInNestedContracts() {
    ObjectNode tree = (ObjectNode) MAPPER.valueToTree(effect(EffectState.CREATED));
    ((ObjectNode) tree.get("organization_id")).put("tenant", "other");

    assertThatThrownBy(() -> MAPPER.readValue(MAPPER.writeValueAsString(tree), EffectRecord.class))
        .isInstanceOf(UnrecognizedPropertyException.class)
        .hasMessageContaining("tenant");
  }

  @Test
  void writesSnakeCaseNamesValueObjectsAndWireValues() {
    JsonNode tree = MAPPER.valueToTree(refundOperation());

    assertThat(tree.get("operation_id").get("value").asString()).isEqualTo("create_refund");
    assertThat(tree.get("effect").asString()).isEqualTo("financial");
    assertThat(tree.get("idempotency_mode").asString()).isEqualTo("PROVIDER_NATIVE");
    assertThat(tree.has("resource_argument")).isFalse();
    assertThat(tree.get("request_schema").get("additionalProperties").asBoolean()).isFalse();
  }

  @Test
  void writesInstantsInUtcWithExactlySixFractionalDigits() {
    EffectRecord effect = new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, KEY,
        "sha256:" + HEX, "sha256:" + HEX, EffectState.CREATED, Instant.parse("2026-01-02T03:04:05Z"),
        Instant.parse("2026-01-02T03:04:05.000000999Z"), null);

    JsonNode tree = MAPPER.valueToTree(effect);

    assertThat(tree.get("created_at").asString()).isEqualTo("2026-01-02T03:04:05.000000Z");
    assertThat(tree.get("updated_at").asString()).isEqualTo("2026-01-02T03:04:05.000000Z");
  }

  @Test
  void readsInstantsWithAnyOffsetAndRefusesNumbersAndLocalTimes() {
    ObjectNode tree = (ObjectNode) MAPPER.valueToTree(evidence());
    tree.put("observed_at", "2026-03-01T12:00:02.123456+02:00");
    assertThat(MAPPER.readValue(MAPPER.writeValueAsString(tree), ConfirmationEvidence.class).observedAt())
        .isEqualTo(Instant.parse("2026-03-01T10:00:02.123456Z"));

    tree.put("observed_at", 1_700_000_000);
    assertThatThrownBy(() -> MAPPER.readValue(MAPPER.writeValueAsString(tree), ConfirmationEvidence.class))
        .isInstanceOf(JacksonException.class);
    tree.put("observed_at", "2026-03-01T12:00:02");
    assertThatThrownBy(() -> MAPPER.readValue(MAPPER.writeValueAsString(tree), ConfirmationEvidence.class))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("ISO-8601 with an offset");
  }

  @Test
  void refusesBareStringForConfirmationEvidenceRef() {
    ObjectNode tree = (ObjectNode) MAPPER.valueToTree(succeededReceipt());
    tree.put("confirmation_evidence_ref", EVIDENCE_REF);

    assertThatThrownBy(() -> MAPPER.readValue(MAPPER.writeValueAsString(tree), EffectReceipt.class))
        .isInstanceOf(JacksonException.class);
  }

  @Test
  void refusesBareStringsForIdentifiers() {
    ObjectNode tree = (ObjectNode) MAPPER.valueToTree(effect(EffectState.CREATED));
    tree.put("execution_id", "exec-1");

    assertThatThrownBy(() -> MAPPER.readValue(MAPPER.writeValueAsString(tree), EffectRecord.class))
        .isInstanceOf(JacksonException.class);
  }

  @Test
  void refusesDuplicateKeysNanAndTrailingContent() {
    String error = "{\"code\":\"STOPPED\",\"message\":\"a\",\"message\":\"b\"}";
    assertThatThrownBy(() -> MAPPER.readValue(error, NormalizedError.class))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("Duplicate");

    String revisionJson = MAPPER.writeValueAsString(revision()).replace("\"timeout_seconds\":30.0",
        "\"timeout_seconds\":NaN");
    assertThat(revisionJson).contains("NaN");
    assertThatThrownBy(() -> MAPPER.readValue(revisionJson, ConnectorRevision.class))
        .isInstanceOf(JacksonException.class);

    assertThatThrownBy(() -> MAPPER.readValue("{\"code\":\"STOPPED\",\"message\":\"a\"} {}", NormalizedError.class))
        .isInstanceOf(JacksonException.class);
  }

  @Test
  void refusesScalarCoercionsAndEnumOrdinals() {
    assertThatThrownBy(() -> MAPPER.readValue("{\"code\":\"STOPPED\",\"message\":12}", NormalizedError.class))
        .isInstanceOf(JacksonException.class);
    assertThatThrownBy(() -> MAPPER.readValue("{\"code\":3,\"message\":\"m\"}", NormalizedError.class))
        .isInstanceOf(JacksonException.class);
    assertThatThrownBy(() -> MAPPER.readValue("{\"code\":\"stopped\",\"message\":\"m\"}", NormalizedError.class))
        .isInstanceOf(JacksonException.class);
    String revisionJson = MAPPER.writeValueAsString(revision()).replace("\"follow_redirects\":false",
        "\"follow_redirects\":\"false\"");
    assertThat(revisionJson).contains("\"follow_redirects\":\"false\"");
    assertThatThrownBy(() -> MAPPER.readValue(revisionJson, ConnectorRevision.class))
        .isInstanceOf(JacksonException.class);
    for (String limit : List.of("65536.5", "\"65536\"")) {
      String json = MAPPER.writeValueAsString(revision()).replace("\"request_size_limit_bytes\":65536",
          "\"request_size_limit_bytes\":" + limit);
      assertThat(json).contains(limit);
      assertThatThrownBy(() -> MAPPER.readValue(json, ConnectorRevision.class)).isInstanceOf(JacksonException.class);
    }
  }

  @Test
  void refusesUnknownEffectKindWireValues() {
    String json = MAPPER.writeValueAsString(listFilesOperation()).replace("\"read\"", "\"READ\"");

    assertThatThrownBy(() -> MAPPER.readValue(json, BusinessOperation.class))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("effect must be one of");
  }

  @Test
  void surfacesContractValidationMessagesWhenReading() {
    String json = MAPPER.writeValueAsString(authorization())
        .replace("\"expires_at\":\"2026-03-01T10:05:00.123456Z\"", "\"expires_at\":\"2026-03-01T09:00:00.000000Z\"");

    assertThatThrownBy(() -> MAPPER.readValue(json, EffectAuthorization.class))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("expires_at must be strictly after issued_at");
  }

  @Test
  void neverWritesRequestBodiesOfDispatchRequests() {
    String canary = "CANARY-BODY-7f3a";
    EffectDispatchRequest request = new EffectDispatchRequest(ORG, connection(), revision(), CREATE_REFUND, EXECUTION,
        KEY, Digests.requestDigest(canary.getBytes(StandardCharsets.UTF_8)), canary.getBytes(StandardCharsets.UTF_8));

    String json = MAPPER.writeValueAsString(request);

    assertThat(json).doesNotContain(canary).doesNotContain("request_body").doesNotContain(SECRET_HANDLE)
        .contains(SecretRef.REDACTED);
    assertThat(request.toString()).doesNotContain(canary).doesNotContain(SECRET_HANDLE);
  }
}
