package io.zeocore.connections.effect;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.internal.ContractRules;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What an {@link EffectReconciler} established about an ambiguous effect. Every result carries the digest of the
 * evidence inspected. {@code CONFIRMED} adds a confirmation digest and no error; {@code FAILED_SAFE} an error and no
 * confirmation digest; {@code UNRESOLVED} neither. An error with {@code providerDetail} is refused.
 *
 * @param disposition the outcome
 * @param evidenceDigest 64 lowercase hex characters, always required
 * @param confirmationDigest 64 lowercase hex characters for {@code CONFIRMED}, else {@code null}
 * @param normalizedError the error for {@code FAILED_SAFE}, else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReconciliationResult(
    ReconciliationDisposition disposition,
    String evidenceDigest,
    @Nullable String confirmationDigest,
    @Nullable NormalizedError normalizedError) {

  public ReconciliationResult {
    ContractRules.required(disposition, "disposition");
    ContractRules.forbidProviderDetail(normalizedError == null ? null : normalizedError.providerDetail());
    ContractRules.hex64(evidenceDigest, "evidence_digest");
    ContractRules.optionalHex64(confirmationDigest, "confirmation_digest");
    switch (disposition) {
      case CONFIRMED -> {
        if (confirmationDigest == null) {
          throw new IllegalArgumentException("CONFIRMED reconciliation result must carry confirmation_digest");
        }
        if (normalizedError != null) {
          throw new IllegalArgumentException("CONFIRMED reconciliation result must not carry normalized_error");
        }
      }
      case FAILED_SAFE -> {
        if (normalizedError == null) {
          throw new IllegalArgumentException("FAILED_SAFE reconciliation result must carry normalized_error");
        }
        if (confirmationDigest != null) {
          throw new IllegalArgumentException("FAILED_SAFE reconciliation result must not carry confirmation_digest");
        }
      }
      case UNRESOLVED -> {
        if (confirmationDigest != null || normalizedError != null) {
          throw new IllegalArgumentException(
              "UNRESOLVED reconciliation result must carry neither confirmation_digest nor normalized_error");
        }
      }
      default -> throw new AssertionError(disposition);
    }
  }

  public static ReconciliationResult confirmed(String evidenceDigest, String confirmationDigest) {
    return new ReconciliationResult(ReconciliationDisposition.CONFIRMED, evidenceDigest, confirmationDigest, null);
  }

  public static ReconciliationResult failedSafe(String evidenceDigest, NormalizedError error) {
    return new ReconciliationResult(ReconciliationDisposition.FAILED_SAFE, evidenceDigest, null, error);
  }

  public static ReconciliationResult unresolved(String evidenceDigest) {
    return new ReconciliationResult(ReconciliationDisposition.UNRESOLVED, evidenceDigest, null, null);
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReconciliationResult.class, name);
  }
}
