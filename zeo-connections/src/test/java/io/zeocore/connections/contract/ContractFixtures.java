package io.zeocore.connections.contract;

import io.zeocore.EffectKind;
import io.zeocore.connections.effect.EffectDispatchRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Valid contract values for tests; each factory builds a fresh, fully populated instance. */
public final class ContractFixtures {

  public static final Instant T = Instant.parse("2026-03-01T10:00:00.123456Z");
  public static final OrganizationId ORG = new OrganizationId("org-1");
  public static final ConnectionId CONNECTION = new ConnectionId("conn-1");
  public static final ConnectorId CONNECTOR = new ConnectorId("stripe");
  public static final ConnectorRevisionId REVISION = new ConnectorRevisionId("stripe-r1");
  public static final OperationId CREATE_REFUND = new OperationId("create_refund");
  public static final OperationId LIST_FILES = new OperationId("list_files");
  public static final EffectId EXECUTION = new EffectId("exec-1");
  public static final AuthorizationId AUTHORIZATION = new AuthorizationId("auth-1");
  public static final IdempotencyKey KEY = new IdempotencyKey("idem-1");
  public static final String SECRET_HANDLE = "zc0-kc:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a";
  public static final String EVIDENCE_REF = "zeo-evidence:v1:0f8fad5b-d9cb-469f-a165-70867728950e";
  public static final String ARTIFACT_REF = "zeo-observation-artifact:v1:7c9e6679-7425-40de-944b-e07fc1f90ae7";
  public static final String HEX = "a".repeat(64);
  public static final byte[] BODY = "{\"amount\":100,\"charge\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8);

  private ContractFixtures() {}

  public static Map<String, Object> closedSchema(String... propertyNames) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (String name : propertyNames) {
      properties.put(name, Map.of("type", "string"));
    }
    return BusinessOperation.closedRequestSchema(properties);
  }

  public static BusinessOperation refundOperation() {
    return new BusinessOperation(CREATE_REFUND, EffectKind.FINANCIAL, closedSchema("amount", "charge"),
        Map.of("type", "object"), "https://api.stripe.com", "POST", "/v1/refunds", List.of("api_key"),
        List.of("$.id"), IdempotencyMode.PROVIDER_NATIVE, "lookup_by_idempotency_key", null);
  }

  public static BusinessOperation listFilesOperation() {
    return new BusinessOperation(LIST_FILES, EffectKind.READ, closedSchema("folder"), Map.of("type", "object"),
        "https://api.stripe.com", "GET", "/v1/files/{folder}", List.of(), List.of(), IdempotencyMode.NOT_IDEMPOTENT,
        null, "folder");
  }

  public static ConnectorRevision revision() {
    return revision(List.of(refundOperation(), listFilesOperation()));
  }

  public static ConnectorRevision revision(List<BusinessOperation> operations) {
    return new ConnectorRevision(CONNECTOR, REVISION, "stripe", "api_key", "GET /v1/account", "GET /v1/balance",
        "header:Authorization", "default", "1", List.of("https://api.stripe.com"), List.of("refunds:write"),
        operations, 65_536, 1_048_576, 30.0, false, RiskClass.HIGH, true, "by_idempotency_key", null,
        List.of("fixture-1"));
  }

  public static Connection connection() {
    return new Connection(CONNECTION, ORG, CONNECTOR, REVISION, "default-app", "acct_123", List.of("folder-a"),
        List.of("refunds:write"), List.of(CREATE_REFUND, LIST_FILES), new SecretRef(SECRET_HANDLE),
        ConnectionStatus.ACTIVE, ConnectionHealth.HEALTHY, T, T.plusSeconds(60), null);
  }

  public static EffectAuthorization authorization() {
    return new EffectAuthorization(AUTHORIZATION, ORG, "seat-1", "binding-1", "packet-1", "attempt-1", CONNECTION,
        REVISION, CREATE_REFUND, Digests.requestDigest(BODY), KEY, List.of("approval-1"), T, T.plusSeconds(300),
        "nonce-1", "zeocore", "zeo-go", "c2lnbmF0dXJl");
  }

  public static EffectRecord effect(EffectState state) {
    Instant completed = state.isTerminal() ? T.plusSeconds(2) : null;
    return new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, KEY,
        "sha256:" + "b".repeat(64), Digests.requestDigest(BODY), state, T, T.plusSeconds(1), completed);
  }

  public static EffectReceipt succeededReceipt() {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.SUCCEEDED, null, T.plusSeconds(2),
        T.plusSeconds(1), null, new ConfirmationEvidenceRef(EVIDENCE_REF), null, null, null);
  }

  public static EffectReceipt resolvingReceipt() {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.FAILED_SAFE,
        new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "provider proved no effect"), T.plusSeconds(3),
        T.plusSeconds(1), T.plusSeconds(3), null, HEX, T.plusSeconds(2), null);
  }

  public static EffectReceipt ambiguousAttemptReceipt() {
    return new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "reconciliation did not establish the effect"),
        T.plusSeconds(3), T.plusSeconds(1), null, null, null, null, HEX);
  }

  public static ConfirmationEvidence evidence() {
    return new ConfirmationEvidence(new ConfirmationEvidenceRef(EVIDENCE_REF), ORG, EXECUTION, T.plusSeconds(2), HEX);
  }

  public static ReadArtifact artifact() {
    return new ReadArtifact(new ReadArtifactRef(ARTIFACT_REF), "sha256:" + HEX, 42, "text/csv");
  }

  public static ReadRecord read(ReadState state) {
    return new ReadRecord(new ReadId("obs-1"), ORG, CONNECTION, REVISION, LIST_FILES, AUTHORIZATION,
        KEY, "sha256:" + "b".repeat(64), Digests.requestDigest(BODY), state, T,
        state == ReadState.CLAIMED ? null : T.plusSeconds(1));
  }

  public static ReadReceipt inlineReadReceipt() {
    Map<String, Object> inline = new LinkedHashMap<>();
    inline.put("name", "selected.csv");
    inline.put("size", 42);
    inline.put("tags", List.of("a", true, 1.5));
    return new ReadReceipt(new ReadId("obs-1"), ORG, CONNECTION, ReadState.CONFIRMED,
        Digests.requestDigest(BODY), "sha256:" + HEX, inline, null, null, T.plusSeconds(1));
  }

  public static EffectDispatchRequest dispatchRequest() {
    return new EffectDispatchRequest(ORG, connection(), revision(), CREATE_REFUND, EXECUTION, KEY,
        Digests.requestDigest(BODY), BODY);
  }
}
