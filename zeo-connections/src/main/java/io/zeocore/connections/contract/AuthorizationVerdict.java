package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The verifier's answer. Exactly two shapes: authorized (no reason; every checked identity restated: organization,
 * connection and connector revision from the trusted context, operation and authorization id from the authorization,
 * the request digest) or refused (exactly one reason). Both carry {@code checkedAt}. The text form shows only
 * {@code authorized} with the authorization id, or the refusal reason.
 *
 * @param authorized whether the authorization passed every check
 * @param organizationId restated on an authorized verdict
 * @param connectionId restated on an authorized verdict
 * @param connectorRevision restated on an authorized verdict
 * @param operationId restated on an authorized verdict
 * @param authorizationId restated on an authorized verdict
 * @param requestDigest restated on an authorized verdict; not blank when present
 * @param checkedAt the {@code now} of the check (microsecond precision)
 * @param refusalReason required exactly when not authorized
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AuthorizationVerdict(
    boolean authorized,
    @Nullable OrganizationId organizationId,
    @Nullable ConnectionId connectionId,
    @Nullable ConnectorRevisionId connectorRevision,
    @Nullable OperationId operationId,
    @Nullable AuthorizationId authorizationId,
    @Nullable String requestDigest,
    Instant checkedAt,
    @Nullable AuthorizationRefusalReason refusalReason) {

  public AuthorizationVerdict {
    ContractRules.optionalText(requestDigest, "request_digest");
    checkedAt = ContractRules.instant(checkedAt, "checked_at");
    if (authorized) {
      if (refusalReason != null) {
        throw new IllegalArgumentException("authorized verdict must not carry a refusal_reason");
      }
      if (organizationId == null || connectionId == null || connectorRevision == null || operationId == null
          || authorizationId == null || requestDigest == null) {
        throw new IllegalArgumentException("authorized verdict must restate every checked identity field");
      }
    } else if (refusalReason == null) {
      throw new IllegalArgumentException("refused verdict must carry a non-null refusal_reason");
    }
  }

  /** An authorized verdict restating every checked field. */
  public static AuthorizationVerdict authorized(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, AuthorizationId authorizationId,
      String requestDigest, Instant checkedAt) {
    return new AuthorizationVerdict(true, organizationId, connectionId, connectorRevision, operationId,
        authorizationId, requestDigest, checkedAt, null);
  }

  /** A refused verdict with its one reason. */
  public static AuthorizationVerdict refused(AuthorizationRefusalReason reason, Instant checkedAt) {
    return new AuthorizationVerdict(false, null, null, null, null, null, null, checkedAt,
        ContractRules.required(reason, "refusal_reason"));
  }

  @Override
  public String toString() {
    return authorized
        ? "AuthorizationVerdict[authorized=true, authorizationId=" + authorizationId + "]"
        : "AuthorizationVerdict[authorized=false, refusalReason=" + refusalReason + "]";
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(AuthorizationVerdict.class, name);
  }
}
