package io.zeocore.connections.read;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.ReadArtifact;
import io.zeocore.connections.internal.ContractRules;
import io.zeocore.connections.internal.JsonValues;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What an {@link ReadDispatcher} returned. {@code CONFIRMED} carries exactly one representation (an inline JSON
 * value or an artifact) and no error; {@code FAILED_SAFE} carries only an error. An error with {@code providerDetail}
 * is refused. JSON {@code null} cannot be an inline result (it is indistinguishable from absent).
 *
 * @param disposition the outcome
 * @param inlineResult a JSON value (deep immutable copy), or {@code null}
 * @param artifact artifact metadata, or {@code null}
 * @param normalizedError the error for {@code FAILED_SAFE}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReadDispatchResult(
    ReadDisposition disposition,
    @Nullable Object inlineResult,
    @Nullable ReadArtifact artifact,
    @Nullable NormalizedError normalizedError) {

  public ReadDispatchResult {
    ContractRules.required(disposition, "disposition");
    inlineResult = JsonValues.value(inlineResult, "inline_result");
    ContractRules.forbidProviderDetail(normalizedError == null ? null : normalizedError.providerDetail());
    if (disposition == ReadDisposition.CONFIRMED) {
      if ((inlineResult == null) == (artifact == null)) {
        throw new IllegalArgumentException(
            "CONFIRMED observation result must carry exactly one of inline_result and artifact");
      }
      if (normalizedError != null) {
        throw new IllegalArgumentException("CONFIRMED observation result must not carry normalized_error");
      }
    } else {
      if (normalizedError == null) {
        throw new IllegalArgumentException("FAILED_SAFE observation result must carry normalized_error");
      }
      if (inlineResult != null || artifact != null) {
        throw new IllegalArgumentException("FAILED_SAFE observation result must not carry inline_result or artifact");
      }
    }
  }

  public static ReadDispatchResult inline(Object inlineResult) {
    return new ReadDispatchResult(ReadDisposition.CONFIRMED, inlineResult, null, null);
  }

  public static ReadDispatchResult artifact(ReadArtifact artifact) {
    return new ReadDispatchResult(ReadDisposition.CONFIRMED, null, artifact, null);
  }

  public static ReadDispatchResult failedSafe(NormalizedError error) {
    return new ReadDispatchResult(ReadDisposition.FAILED_SAFE, null, null, error);
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadDispatchResult.class, name);
  }
}
