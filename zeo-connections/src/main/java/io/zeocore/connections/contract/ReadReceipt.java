package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.zeocore.connections.internal.ContractRules;
import io.zeocore.connections.internal.JsonValues;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The one outcome record of a read. {@code CLAIMED} is never a receipt state. {@code CONFIRMED} carries exactly one
 * representation ({@code inlineResult} or {@code artifact}), a result digest and no error; {@code FAILED_SAFE}
 * carries only an error. An error with {@code providerDetail} is refused.
 *
 * @param readId the read
 * @param organizationId its organization
 * @param connectionId its connection
 * @param finalState {@code CONFIRMED} or {@code FAILED_SAFE}
 * @param requestDigest {@code sha256:} + 64 lowercase hex of the raw request body
 * @param resultDigest {@code sha256:} + 64 lowercase hex for {@code CONFIRMED}
 * @param inlineResult a JSON value (deep immutable copy of maps, lists, strings, numbers, booleans), or {@code null}
 * @param artifact artifact metadata, or {@code null}
 * @param normalizedError the error for {@code FAILED_SAFE}
 * @param recordedAt when the receipt was recorded (microsecond precision)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReadReceipt(
    @JsonProperty("observation_id") ReadId readId,
    OrganizationId organizationId,
    ConnectionId connectionId,
    ReadState finalState,
    String requestDigest,
    @Nullable String resultDigest,
    @Nullable Object inlineResult,
    @Nullable ReadArtifact artifact,
    @Nullable NormalizedError normalizedError,
    Instant recordedAt) {

  public ReadReceipt {
    ContractRules.required(readId, "observation_id");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connectionId, "connection_id");
    ContractRules.required(finalState, "final_state");
    ContractRules.sha256Digest(requestDigest, "request_digest");
    if (resultDigest != null) {
      ContractRules.sha256Digest(resultDigest, "result_digest");
    }
    inlineResult = JsonValues.value(inlineResult, "inline_result");
    recordedAt = ContractRules.instant(recordedAt, "recorded_at");
    ContractRules.forbidProviderDetail(normalizedError == null ? null : normalizedError.providerDetail());
    switch (finalState) {
      case CLAIMED -> throw new IllegalArgumentException("observation receipt final_state must not be CLAIMED");
      case CONFIRMED -> {
        if ((inlineResult == null) == (artifact == null)) {
          throw new IllegalArgumentException(
              "CONFIRMED observation receipt must carry exactly one of inline_result and artifact");
        }
        if (resultDigest == null) {
          throw new IllegalArgumentException("CONFIRMED observation receipt must carry result_digest");
        }
        if (normalizedError != null) {
          throw new IllegalArgumentException("CONFIRMED observation receipt must not carry normalized_error");
        }
      }
      case FAILED_SAFE -> {
        if (normalizedError == null) {
          throw new IllegalArgumentException("FAILED_SAFE observation receipt must carry normalized_error");
        }
        if (inlineResult != null || artifact != null || resultDigest != null) {
          throw new IllegalArgumentException(
              "FAILED_SAFE observation receipt must not carry inline_result, artifact or result_digest");
        }
      }
      default -> throw new AssertionError(finalState);
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadReceipt.class, name);
  }
}
