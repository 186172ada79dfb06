package io.zeocore.connections.contract;

import io.zeocore.EffectKind;
import io.zeocore.connections.effect.DispatchDisposition;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectReconciliationRequest;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationDisposition;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.read.ReadDispatchRequest;
import io.zeocore.connections.read.ReadDisposition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import static io.zeocore.connections.contract.ContractFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ContractValidationTest {

  private static final NormalizedError AMBIGUOUS_ERROR =
      new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "dispatch started but positive outcome is unknown");
  private static final NormalizedError REFUSED_ERROR =
      new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "authorization refused: EXPIRED");
  private static final ConfirmationEvidenceRef REF = new ConfirmationEvidenceRef(EVIDENCE_REF);

  @Nested
  class Identifiers {

    @Test
    void keepSurroundingWhitespaceAndPrintTheRawValue() {
      assertThat(new OrganizationId(" org ").value()).isEqualTo(" org ");
      assertThat(new ConnectionId("conn-1")).hasToString("conn-1");
    }

    @Test
    void refuseEmptyWhitespaceOnlyAndNullValues() {
      assertThatThrownBy(() -> new OrganizationId("")).hasMessage("OrganizationId must not be empty or whitespace only");
      assertThatThrownBy(() -> new IdempotencyKey(" \u00a0\t")).hasMessageContaining("whitespace only");
      assertThatThrownBy(() -> new EffectId(null)).hasMessage("EffectId is required");
    }

    @Test
    void areDistinctTypes() {
      assertThat((Object) new OrganizationId("x")).isNotEqualTo(new ConnectionId("x"));
    }

    @Test
    void evidenceAndArtifactRefsRequireTheExactPrefixAndALowercaseV4Uuid() {
      String uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
      assertThat(new ConfirmationEvidenceRef("zeo-evidence:v1:" + uuid)).hasToString("zeo-evidence:v1:" + uuid);
      for (String bad : List.of("zeo-evidence:v1:" + uuid.toUpperCase(), "zeo-evidence:v1:" + uuid + "\n",
          " zeo-evidence:v1:" + uuid, "zeo-evidence:v2:" + uuid, "zeo-evidence:v1:0f8fad5b-d9cb-169f-a165-70867728950e",
          "zeo-evidence:v1:0f8fad5b-d9cb-469f-c165-70867728950e", uuid)) {
        assertThatThrownBy(() -> new ConfirmationEvidenceRef(bad)).as(bad)
            .hasMessageContaining("lowercase version-4 UUID");
      }
      assertThatThrownBy(() -> new ReadArtifactRef("zeo-observation-artifact:v1:" + uuid + "\n"))
          .hasMessageContaining("lowercase version-4 UUID");
      assertThat(ConfirmationEvidenceRef.of(java.util.UUID.fromString(uuid)).value()).endsWith(uuid);
    }
  }

  @Nested
  class Enumerations {

    @Test
    void haveExactlyTheReferenceValues() {
      assertThat(names(NormalizedErrorCode.values())).containsExactly("CONNECTION_REVOKED",
          "CONNECTION_REPAIR_REQUIRED", "PROVIDER_SCOPE_MISSING", "EXTERNAL_IDENTITY_CHANGED",
          "BUSINESS_RESOURCE_UNAVAILABLE", "RATE_LIMITED", "PROVIDER_UNAVAILABLE", "REQUEST_REFUSED", "FAILED_SAFE",
          "RESULT_AMBIGUOUS", "CONNECTOR_REVISION_UNAVAILABLE", "STOPPED");
      // the reference's eleven, then ZeoCore's one addition (the not-before check)
      assertThat(names(AuthorizationRefusalReason.values()))
          .containsExactly("ABSENT", "ORGANIZATION_MISMATCH", "CONNECTION_MISMATCH", "CONNECTOR_REVISION_MISMATCH",
              "OPERATION_MISMATCH", "REQUEST_DIGEST_MISMATCH", "AUDIENCE_MISMATCH", "ISSUER_UNTRUSTED",
              "SIGNATURE_UNVERIFIABLE", "EXPIRED", "REPLAYED", "NOT_YET_VALID")
          .filteredOn(name -> name.endsWith("_MISMATCH")).hasSize(6);
      assertThat(names(AuthorizationRefusalReason.values()))
          .noneMatch(name -> List.of("OTHER", "UNKNOWN", "GENERIC", "MISC", "UNSPECIFIED").contains(name));
      assertThat(names(ConnectionStatus.values())).containsExactly("PENDING", "ACTIVE", "REPAIR_REQUIRED", "REVOKED");
      assertThat(names(ConnectionHealth.values())).containsExactly("UNKNOWN", "HEALTHY", "DEGRADED", "UNREACHABLE");
      assertThat(names(RiskClass.values())).containsExactly("LOW", "MODERATE", "HIGH");
      assertThat(names(IdempotencyMode.values())).containsExactly("PROVIDER_NATIVE", "KERNEL_MANAGED",
          "NOT_IDEMPOTENT");
      assertThat(names(ReadState.values())).containsExactly("CLAIMED", "CONFIRMED", "FAILED_SAFE");
      assertThat(names(DispatchDisposition.values())).containsExactly("CONFIRMED", "FAILED_SAFE");
      assertThat(names(ReconciliationDisposition.values())).containsExactly("CONFIRMED", "FAILED_SAFE", "UNRESOLVED");
      assertThat(names(ReadDisposition.values())).containsExactly("CONFIRMED", "FAILED_SAFE");
      assertThat(Arrays.stream(EffectKind.values()).map(EffectKind::wireValue)).containsExactly("read", "write",
          "delete", "external_communication", "financial", "security_sensitive");
      assertThat(Arrays.stream(EffectKind.values()).filter(kind -> !kind.isEffectful()))
          .containsExactly(EffectKind.READ);
    }

    private List<String> names(Enum<?>[] values) {
      return Arrays.stream(values).map(Enum::name).toList();
    }
  }

  @Nested
  class Revisions {

    @Test
    void refuseDuplicateOperationIds() {
      assertThatThrownBy(() -> revision(List.of(refundOperation(), refundOperation())))
          .hasMessageContaining("duplicate operation_id");
    }

    @Test
    void requireAReconciliationStrategyOnEveryEffectfulOperation() {
      BusinessOperation blankStrategy = new BusinessOperation(CREATE_REFUND, EffectKind.WRITE, closedSchema("a"),
          Map.of(), "https://api.stripe.com", "POST", "/v1/x", List.of("k"), List.of("$.x"),
          IdempotencyMode.KERNEL_MANAGED, "  ", null);
      assertThat(blankStrategy.reconciliationStrategy()).isNull();

      assertThatThrownBy(() -> revision(List.of(blankStrategy))).hasMessageContaining("reconciliation_strategy");
      assertThat(revision(List.of(listFilesOperation())).operations()).hasSize(1);
    }

    @Test
    void requireOriginsOperationsAndPositiveLimits() {
      ConnectorRevision r = revision();
      assertThatThrownBy(() -> new ConnectorRevision(r.connectorId(), r.revisionId(), "p", "a", "e", "h", "c", "r",
          "1", List.of(), null, r.operations(), 1, 1, 1, false, RiskClass.LOW, false, null, null, null))
          .hasMessage("permitted_upstream_origins must contain at least one origin");
      assertThatThrownBy(() -> new ConnectorRevision(r.connectorId(), r.revisionId(), "p", "a", "e", "h", "c", "r",
          "1", List.of("https://a.example"), null, List.of(), 1, 1, 1, false, RiskClass.LOW, false, null, null, null))
          .hasMessage("operations must contain at least one operation");
      assertThatThrownBy(() -> new ConnectorRevision(r.connectorId(), r.revisionId(), "p", "a", "e", "h", "c", "r",
          "1", List.of("https://a.example"), null, r.operations(), 0, 1, 1, false, RiskClass.LOW, false, null, null,
          null)).hasMessage("request_size_limit_bytes must be greater than zero");
      assertThatThrownBy(() -> new ConnectorRevision(r.connectorId(), r.revisionId(), "p", "a", "e", "h", "c", "r",
          "1", List.of("https://a.example"), null, r.operations(), 1, 1, Double.NaN, false, RiskClass.LOW, false, null,
          null, null)).hasMessage("timeout_seconds must be finite and greater than zero");
      assertThatThrownBy(() -> new ConnectorRevision(r.connectorId(), r.revisionId(), " ", "a", "e", "h", "c", "r",
          "1", List.of("https://a.example"), null, r.operations(), 1, 1, 1, false, RiskClass.LOW, false, null, null,
          null)).hasMessage("provider must not be empty or whitespace only");
    }

    @Test
    void holdDeeplyImmutableCopiesOfSchemasAndLists() {
      Map<String, Object> properties = new HashMap<>();
      properties.put("amount", new HashMap<>(Map.of("type", "integer")));
      Map<String, Object> schema = new HashMap<>(Map.of("type", "object", "properties", properties));
      List<String> bindings = new ArrayList<>(List.of("api_key"));
      BusinessOperation operation = new BusinessOperation(CREATE_REFUND, EffectKind.WRITE, schema, Map.of(),
          "https://a.example", "POST", "/x", bindings, null, IdempotencyMode.KERNEL_MANAGED, "lookup", null);

      properties.put("extra", Map.of());
      bindings.add("other");

      assertThat(operation.secretBindings()).containsExactly("api_key");
      assertThat(operation.redactionPaths()).isEmpty();
      @SuppressWarnings("unchecked")
      Map<String, Object> copiedProperties = (Map<String, Object>) operation.requestSchema().get("properties");
      assertThat(copiedProperties).containsOnlyKeys("amount");
      assertThatThrownBy(() -> operation.requestSchema().put("x", 1))
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(copiedProperties::clear)
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> new BusinessOperation(CREATE_REFUND, EffectKind.WRITE,
          Map.of("type", Double.NaN), Map.of(), "https://a.example", "POST", "/x", null, null,
          IdempotencyMode.KERNEL_MANAGED, "lookup", null)).hasMessageContaining("NaN");
    }
  }

  @Nested
  class Connections {

    @Test
    void requireRevokedAtExactlyWhenRevoked() {
      Connection c = connection();
      assertThatThrownBy(() -> withStatus(c, ConnectionStatus.REVOKED, null))
          .hasMessage("REVOKED connection must carry revoked_at");
      assertThatThrownBy(() -> withStatus(c, ConnectionStatus.ACTIVE, T))
          .hasMessage("revoked_at may only be set on a REVOKED connection");
      assertThat(withStatus(c, ConnectionStatus.REVOKED, T).revokedAt()).isEqualTo(T);
    }

    @Test
    void refuseDuplicateExposedOperationsAndDefaultHealthToUnknown() {
      Connection c = connection();
      assertThatThrownBy(() -> new Connection(c.connectionId(), ORG, CONNECTOR, REVISION, "p", "i", null, null,
          List.of(CREATE_REFUND, CREATE_REFUND), c.secretHandle(), ConnectionStatus.ACTIVE, null, T, null, null))
          .hasMessageContaining("duplicate operation_id");
      assertThat(new Connection(c.connectionId(), ORG, CONNECTOR, REVISION, "p", "i", null, null, null,
          c.secretHandle(), ConnectionStatus.ACTIVE, null, T, null, null).health()).isEqualTo(ConnectionHealth.UNKNOWN);
    }

    private Connection withStatus(Connection c, ConnectionStatus status, Instant revokedAt) {
      return new Connection(c.connectionId(), c.organizationId(), c.connectorId(), c.connectorRevision(),
          c.providerApplicationProfile(), c.verifiedExternalIdentity(), c.selectedBusinessResources(),
          c.grantedProviderScopes(), c.exposedBusinessOperations(), c.secretHandle(), status, c.health(),
          c.createdAt(), c.lastVerifiedAt(), revokedAt);
    }
  }

  @Nested
  class Authorizations {

    @Test
    void requireExpiryStrictlyAfterIssueAndCountTheBoundaryAsExpired() {
      EffectAuthorization a = authorization();
      assertThatThrownBy(() -> new EffectAuthorization(a.authorizationId(), ORG, "s", "r", "p", "a", CONNECTION,
          REVISION, CREATE_REFUND, "d", KEY, null, T, T, "n", "aud", "iss", "sig"))
          .hasMessage("expires_at must be strictly after issued_at");
      assertThat(a.isExpiredAt(a.expiresAt().minusNanos(1000))).isFalse();
      assertThat(a.isExpiredAt(a.expiresAt())).isTrue();
    }

    @Test
    void refuseWhitespaceOnlyAudience() {
      EffectAuthorization a = authorization();
      assertThatThrownBy(() -> new EffectAuthorization(a.authorizationId(), ORG, "s", "r", "p", "a", CONNECTION,
          REVISION, CREATE_REFUND, "d", KEY, null, T, T.plusSeconds(1), "n", "  ", "iss", "sig"))
          .hasMessage("audience must not be empty or whitespace only");
    }

    @Test
    void truncateInstantsToMicroseconds() {
      EffectAuthorization a = authorization();
      Instant nanos = Instant.parse("2026-03-01T10:00:00.123456789Z");
      EffectAuthorization truncated = new EffectAuthorization(a.authorizationId(), ORG, "s", "r", "p", "a",
          CONNECTION, REVISION, CREATE_REFUND, "d", KEY, null, nanos, nanos.plusSeconds(1), "n", "aud", "iss", "sig");
      assertThat(truncated.issuedAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00.123456Z"));
    }
  }

  @Nested
  class Executions {

    @Test
    void refuseUpdatedBeforeCreated() {
      assertThatThrownBy(() -> new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, KEY,
          "d", "r", EffectState.CREATED, T, T.minusNanos(1000), null))
          .hasMessage("updated_at must not be before created_at");
    }

    @Test
    void requireCompletedAtExactlyWhenTerminal() {
      assertThatThrownBy(() -> new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, KEY,
          "d", "r", EffectState.SUCCEEDED, T, T, null)).hasMessageContaining("must carry completed_at");
      assertThatThrownBy(() -> new EffectRecord(EXECUTION, ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, KEY,
          "d", "r", EffectState.AMBIGUOUS, T, T, T)).hasMessageContaining("must not carry completed_at");
    }

    @Test
    void transitionFollowsOnlyTableEdgesAndKeepsIdentity() {
      EffectRecord created = effect(EffectState.CREATED);
      EffectRecord verified = created.transitionTo(EffectState.AUTHORIZATION_VERIFIED, T.plusSeconds(5));
      EffectRecord refused = verified.transitionTo(EffectState.REFUSED, T.plusSeconds(6));

      assertThat(refused.completedAt()).isEqualTo(T.plusSeconds(6));
      assertThat(refused.hasSameIdentityAs(created)).isTrue();
      assertThatThrownBy(() -> created.transitionTo(EffectState.DISPATCH_STARTED, T.plusSeconds(5)))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("CREATED -> DISPATCH_STARTED");
      assertThatThrownBy(() -> verified.transitionTo(EffectState.PREPARED, T))
          .hasMessageContaining("monotonic");
    }
  }

  @Nested
  class Receipts {

    @Test
    void rule1RequiresTerminalOrAmbiguous() {
      assertThatThrownBy(() -> receipt(EffectState.DISPATCH_STARTED, null, T, null, null, null, null, null))
          .hasMessageContaining("terminal or AMBIGUOUS");
    }

    @Test
    void rule2TiesTheErrorToTheState() {
      assertThatThrownBy(() -> receipt(EffectState.SUCCEEDED, REFUSED_ERROR, T, null, REF, null, null, null))
          .hasMessageContaining("only be set when final_state").hasMessageContaining("SUCCEEDED forbids it");
      assertThatThrownBy(() -> receipt(EffectState.REFUSED, null, null, null, null, null, null, null))
          .hasMessage("REFUSED receipt must carry normalized_error");
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, null, T, null, null, null, null, null))
          .hasMessage("FAILED_SAFE receipt must carry normalized_error");
      assertThatThrownBy(() -> receipt(EffectState.AMBIGUOUS, null, T, null, null, null, null, null))
          .hasMessage("AMBIGUOUS receipt must carry normalized_error");
      assertThatThrownBy(() -> receipt(EffectState.AMBIGUOUS, REFUSED_ERROR, T, null, null, null, null, null))
          .hasMessageContaining("code must be exactly RESULT_AMBIGUOUS");
      assertThat(receipt(EffectState.FAILED_SAFE, AMBIGUOUS_ERROR, T, null, null, null, null, null)).isNotNull();
    }

    @Test
    void rule3RequiresEvidenceAndDispatchOnSuccessOnly() {
      assertThatThrownBy(() -> receipt(EffectState.SUCCEEDED, null, T, null, null, null, null, null))
          .hasMessageContaining("SUCCEEDED receipt must carry a non-empty");
      assertThatThrownBy(() -> receipt(EffectState.SUCCEEDED, null, null, null, REF, null, null, null))
          .hasMessage("SUCCEEDED receipt must carry dispatch_started_at");
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, REFUSED_ERROR, T, null, REF, null, null, null))
          .hasMessageContaining("only be set when final_state is SUCCEEDED");
    }

    @Test
    void rule4ForbidsDispatchOnRefusals() {
      assertThatThrownBy(() -> receipt(EffectState.REFUSED, REFUSED_ERROR, T, null, null, null, null, null))
          .hasMessage("REFUSED receipt must not carry dispatch_started_at");
    }

    @Test
    void rule5MakesAttemptAndResolutionEvidenceExclusive() {
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, REFUSED_ERROR, T, T, null, HEX, T, HEX))
          .hasMessageContaining("must not carry both reconciliation_attempt_evidence");
    }

    @Test
    void rule6RequiresTheWholeResolutionOnSucceededOrFailedSafe() {
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, REFUSED_ERROR, T, T, null, null, T, null))
          .hasMessageContaining("must carry reconciliation_evidence");
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, REFUSED_ERROR, T, T, null, HEX, null, null))
          .hasMessageContaining("must carry resolves_ambiguous_recorded_at");
      assertThatThrownBy(() -> receipt(EffectState.AMBIGUOUS, AMBIGUOUS_ERROR, T, T, null, HEX, T, null))
          .hasMessageContaining("may only be set on a receipt resolving to SUCCEEDED or FAILED_SAFE");
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, REFUSED_ERROR, T, null, null, HEX, T, null))
          .hasMessageContaining("must carry resolved_at");
      assertThat(receipt(EffectState.SUCCEEDED, null, T, T, REF, HEX, T, null).resolvesAmbiguity()).isTrue();
    }

    @Test
    void rule7KeepsAttemptEvidenceOnAmbiguousReceipts() {
      assertThatThrownBy(() -> receipt(EffectState.FAILED_SAFE, REFUSED_ERROR, T, null, null, null, null, HEX))
          .hasMessageContaining("may only be set when final_state is still AMBIGUOUS");
      assertThat(receipt(EffectState.AMBIGUOUS, AMBIGUOUS_ERROR, T, null, null, null, null, HEX)).isNotNull();
    }

    @Test
    void reportsTheFirstFailingRule() {
      // breaks rules 3 (no evidence ref), 4 and 7 at once: rule 3 wins
      assertThatThrownBy(() -> receipt(EffectState.SUCCEEDED, null, null, null, null, null, null, HEX))
          .hasMessageContaining("SUCCEEDED receipt must carry a non-empty");
      // breaks rules 2 (missing error) and 4 (dispatch on refusal): rule 2 wins
      assertThatThrownBy(() -> receipt(EffectState.REFUSED, null, T, null, REF, null, null, null))
          .hasMessage("REFUSED receipt must carry normalized_error");
      // breaks rules 4 and 5: rule 4 wins
      assertThatThrownBy(() -> receipt(EffectState.REFUSED, REFUSED_ERROR, T, null, null, HEX, T, HEX))
          .hasMessage("REFUSED receipt must not carry dispatch_started_at");
    }

    private EffectReceipt receipt(EffectState state, NormalizedError error, Instant dispatchStartedAt,
        Instant resolvedAt, ConfirmationEvidenceRef ref, String reconciliationEvidence, Instant pointer,
        String attemptEvidence) {
      return new EffectReceipt(EXECUTION, ORG, CONNECTION, state, error, T.plusSeconds(9), dispatchStartedAt,
          resolvedAt, ref, reconciliationEvidence, pointer, attemptEvidence);
    }
  }

  @Nested
  class Results {

    @Test
    void evidenceRequiresABareLowercaseHexDigest() {
      assertThatThrownBy(() -> new ConfirmationEvidence(REF, ORG, EXECUTION, T, "sha256:" + HEX))
          .hasMessageContaining("64 lowercase hexadecimal");
      assertThatThrownBy(() -> new ConfirmationEvidence(REF, ORG, EXECUTION, T, HEX.toUpperCase()))
          .hasMessageContaining("64 lowercase hexadecimal");
    }

    @Test
    void dispatchResultsHaveExactlyTwoShapesAndNoProviderDetail() {
      assertThatThrownBy(() -> new EffectDispatchResult(DispatchDisposition.CONFIRMED, null, null))
          .hasMessage("CONFIRMED dispatch result must carry confirmation_digest");
      assertThatThrownBy(() -> new EffectDispatchResult(DispatchDisposition.CONFIRMED, HEX, REFUSED_ERROR))
          .hasMessage("CONFIRMED dispatch result must not carry normalized_error");
      assertThatThrownBy(() -> new EffectDispatchResult(DispatchDisposition.FAILED_SAFE, null, null))
          .hasMessage("FAILED_SAFE dispatch result must carry normalized_error");
      assertThatThrownBy(() -> new EffectDispatchResult(DispatchDisposition.FAILED_SAFE, HEX, REFUSED_ERROR))
          .hasMessage("FAILED_SAFE dispatch result must not carry confirmation_digest");
      assertThatThrownBy(() -> EffectDispatchResult.failedSafe(
          new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "m", "provider said: card 4242")))
          .hasMessage("provider_detail is forbidden at the orchestration boundary");
    }

    @Test
    void reconciliationResultsAlwaysCarryEvidence() {
      assertThatThrownBy(() -> ReconciliationResult.unresolved(null)).hasMessage("evidence_digest is required");
      assertThatThrownBy(() -> new ReconciliationResult(ReconciliationDisposition.UNRESOLVED, HEX, HEX, null))
          .hasMessageContaining("UNRESOLVED reconciliation result must carry neither");
      assertThatThrownBy(() -> new ReconciliationResult(ReconciliationDisposition.CONFIRMED, HEX, null, null))
          .hasMessage("CONFIRMED reconciliation result must carry confirmation_digest");
      assertThatThrownBy(() -> new ReconciliationResult(ReconciliationDisposition.FAILED_SAFE, HEX, null, null))
          .hasMessage("FAILED_SAFE reconciliation result must carry normalized_error");
    }

    @Test
    void verdictsHaveExactlyTwoShapesAndATerseTextForm() {
      assertThatThrownBy(() -> new AuthorizationVerdict(true, ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION,
          "d", T, AuthorizationRefusalReason.EXPIRED)).hasMessageContaining("must not carry a refusal_reason");
      assertThatThrownBy(() -> new AuthorizationVerdict(true, ORG, CONNECTION, REVISION, CREATE_REFUND, null, "d", T,
          null)).hasMessageContaining("must restate every checked");
      assertThatThrownBy(() -> new AuthorizationVerdict(false, null, null, null, null, null, null, T, null))
          .hasMessageContaining("must carry a non-null refusal_reason");
      assertThat(AuthorizationVerdict.refused(AuthorizationRefusalReason.EXPIRED, T))
          .hasToString("AuthorizationVerdict[authorized=false, refusalReason=EXPIRED]");
      assertThat(AuthorizationVerdict.authorized(ORG, CONNECTION, REVISION, CREATE_REFUND, AUTHORIZATION, "d", T))
          .hasToString("AuthorizationVerdict[authorized=true, authorizationId=auth-1]");
    }

    @Test
    void executionResultsCarryAReasonOnlyWhenRefused() {
      assertThatThrownBy(() -> new EffectResult(EffectState.SUCCEEDED, EXECUTION,
          AuthorizationRefusalReason.REPLAYED)).hasMessage("refusal_reason may only be set when state is REFUSED");
      assertThatThrownBy(() -> new EffectResult(EffectState.SUCCEEDED, null, null))
          .hasMessageContaining("execution_id is required");
    }
  }

  @Nested
  class Observations {

    @Test
    void confirmedReceiptsCarryExactlyOneRepresentationAndADigest() {
      ReadReceipt ok = inlineReadReceipt();
      assertThatThrownBy(() -> new ReadReceipt(ok.readId(), ORG, CONNECTION, ReadState.CONFIRMED,
          ok.requestDigest(), ok.resultDigest(), ok.inlineResult(), artifact(), null, T))
          .hasMessageContaining("exactly one of inline_result and artifact");
      assertThatThrownBy(() -> new ReadReceipt(ok.readId(), ORG, CONNECTION, ReadState.CONFIRMED,
          ok.requestDigest(), null, ok.inlineResult(), null, null, T))
          .hasMessage("CONFIRMED observation receipt must carry result_digest");
      assertThatThrownBy(() -> new ReadReceipt(ok.readId(), ORG, CONNECTION, ReadState.CLAIMED,
          ok.requestDigest(), null, null, null, null, T)).hasMessageContaining("must not be CLAIMED");
      assertThatThrownBy(() -> new ReadReceipt(ok.readId(), ORG, CONNECTION,
          ReadState.FAILED_SAFE, ok.requestDigest(), null, null, null,
          new NormalizedError(NormalizedErrorCode.PROVIDER_UNAVAILABLE, "m", "detail"), T))
          .hasMessage("provider_detail is forbidden at the orchestration boundary");
    }

    @Test
    void recordsRequireCompletedAtOnceTerminal() {
      ReadRecord claimed = read(ReadState.CLAIMED);
      assertThatThrownBy(() -> new ReadRecord(claimed.readId(), ORG, CONNECTION, REVISION, LIST_FILES,
          AUTHORIZATION, KEY, claimed.authorizationDigest(), claimed.requestDigest(), ReadState.CONFIRMED, T,
          null)).hasMessage("CONFIRMED observation must carry completed_at");
      assertThatThrownBy(() -> new ReadRecord(claimed.readId(), ORG, CONNECTION, REVISION, LIST_FILES,
          AUTHORIZATION, KEY, claimed.authorizationDigest(), "sha256:ABC", ReadState.CLAIMED, T, null))
          .hasMessageContaining("request_digest must be sha256:");
      assertThat(claimed.complete(inlineReadReceipt()).state()).isEqualTo(ReadState.CONFIRMED);
    }

    @Test
    void requestsNeverShowTheirBody() {
      String canary = "CANARY-OBS-BODY";
      ReadDispatchRequest request = new ReadDispatchRequest(ORG, connection(), revision(), LIST_FILES,
          new ReadId("o"), Digests.requestDigest(canary.getBytes()), canary.getBytes());
      assertThat(request.toString()).doesNotContain(canary).contains("<15 bytes>");
      byte[] body = request.requestBody();
      body[0] = 'X';
      assertThat(request.requestBody()[0]).isEqualTo((byte) 'C');
      EffectReconciliationRequest recovery = new EffectReconciliationRequest(ORG, connection(), revision(),
          CREATE_REFUND, EXECUTION, KEY, Digests.requestDigest(BODY), T, null);
      assertThat(recovery.requestBody()).isNull();
      assertThat(recovery.toString()).contains("requestBody=<unknown>");
      assertThat(EffectReconciliationRequest.afterDispatch(dispatchRequest(), T).requestBody()).isEqualTo(BODY);
    }
  }
}
