package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.internal.ContractRules;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A provider-neutral error: a code from the fixed taxonomy and a short message written by ZeoCore or the adapter.
 * The message must never carry request bodies, secrets or provider text. {@code providerDetail} is allowed by the
 * contract but refused at the orchestration boundary (dispatch, reconciliation and read results, read
 * receipts), so it never reaches the store.
 *
 * @param code the error code
 * @param message at least one character
 * @param providerDetail optional; see above
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NormalizedError(NormalizedErrorCode code, String message, @Nullable String providerDetail) {

  public NormalizedError {
    ContractRules.required(code, "code");
    if (ContractRules.required(message, "message").isEmpty()) {
      throw new IllegalArgumentException("message must not be empty");
    }
  }

  /** An error without provider detail. */
  public NormalizedError(NormalizedErrorCode code, String message) {
    this(code, message, null);
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(NormalizedError.class, name);
  }
}
