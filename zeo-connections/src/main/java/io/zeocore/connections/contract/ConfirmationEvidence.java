package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * Sanitized proof behind a {@link ConfirmationEvidenceRef}: only a digest of what confirmed the effect is kept, never
 * provider bytes.
 *
 * @param evidenceRef the reference minted by the evidence store
 * @param organizationId the effect's organization
 * @param effectId the confirmed effect
 * @param observedAt when the confirmation was observed (microsecond precision)
 * @param confirmationDigest exactly 64 lowercase hex characters, no {@code sha256:} prefix
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ConfirmationEvidence(
    ConfirmationEvidenceRef evidenceRef,
    OrganizationId organizationId,
    @JsonProperty("execution_id") EffectId effectId,
    Instant observedAt,
    String confirmationDigest) {

  public ConfirmationEvidence {
    ContractRules.required(evidenceRef, "evidence_ref");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(effectId, "execution_id");
    observedAt = ContractRules.instant(observedAt, "observed_at");
    ContractRules.hex64(confirmationDigest, "confirmation_digest");
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ConfirmationEvidence.class, name);
  }
}
