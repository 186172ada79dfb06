package io.zeocore.connections.effect;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.internal.ContractRules;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What an {@link EffectDispatcher} established. {@code CONFIRMED} carries a confirmation digest and no error; {@code
 * FAILED_SAFE} (the provider proved nothing happened) carries an error and no digest. An error with {@code
 * providerDetail} is refused: provider text never crosses this boundary.
 *
 * @param disposition the outcome
 * @param confirmationDigest 64 lowercase hex characters (no prefix) for {@code CONFIRMED}, else {@code null}
 * @param normalizedError the error for {@code FAILED_SAFE}, else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EffectDispatchResult(
    DispatchDisposition disposition, @Nullable String confirmationDigest, @Nullable NormalizedError normalizedError) {

  public EffectDispatchResult {
    ContractRules.required(disposition, "disposition");
    ContractRules.forbidProviderDetail(normalizedError == null ? null : normalizedError.providerDetail());
    ContractRules.optionalHex64(confirmationDigest, "confirmation_digest");
    if (disposition == DispatchDisposition.CONFIRMED) {
      if (confirmationDigest == null) {
        throw new IllegalArgumentException("CONFIRMED dispatch result must carry confirmation_digest");
      }
      if (normalizedError != null) {
        throw new IllegalArgumentException("CONFIRMED dispatch result must not carry normalized_error");
      }
    } else {
      if (normalizedError == null) {
        throw new IllegalArgumentException("FAILED_SAFE dispatch result must carry normalized_error");
      }
      if (confirmationDigest != null) {
        throw new IllegalArgumentException("FAILED_SAFE dispatch result must not carry confirmation_digest");
      }
    }
  }

  /** The provider confirmed the effect; {@code confirmationDigest} is 64 lowercase hex characters. */
  public static EffectDispatchResult confirmed(String confirmationDigest) {
    return new EffectDispatchResult(DispatchDisposition.CONFIRMED, confirmationDigest, null);
  }

  /** The provider proved that no effect happened. */
  public static EffectDispatchResult failedSafe(NormalizedError error) {
    return new EffectDispatchResult(DispatchDisposition.FAILED_SAFE, null, error);
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectDispatchResult.class, name);
  }
}
