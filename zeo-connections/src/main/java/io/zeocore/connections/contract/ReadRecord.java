package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The durable idempotency claim of one read. {@code CLAIMED} carries no {@code completedAt}; {@code CONFIRMED} and
 * {@code FAILED_SAFE} require one, never before {@code createdAt}. Instants are held at microsecond precision.
 *
 * @param readId chosen by the caller
 * @param organizationId the trusted organization
 * @param connectionId the connection
 * @param connectorRevision the revision
 * @param operationId the read operation
 * @param authorizationId the authorization that allowed it
 * @param idempotencyKey from the authorization
 * @param authorizationDigest {@code sha256:} + 64 lowercase hex
 * @param requestDigest {@code sha256:} + 64 lowercase hex of the raw request body
 * @param state current state
 * @param createdAt claim instant
 * @param completedAt required once terminal
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReadRecord(
    @JsonProperty("observation_id") ReadId readId,
    OrganizationId organizationId,
    ConnectionId connectionId,
    ConnectorRevisionId connectorRevision,
    OperationId operationId,
    AuthorizationId authorizationId,
    IdempotencyKey idempotencyKey,
    String authorizationDigest,
    String requestDigest,
    ReadState state,
    Instant createdAt,
    @Nullable Instant completedAt) {

  public ReadRecord {
    ContractRules.required(readId, "observation_id");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connectionId, "connection_id");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.required(operationId, "operation_id");
    ContractRules.required(authorizationId, "authorization_id");
    ContractRules.required(idempotencyKey, "idempotency_key");
    ContractRules.sha256Digest(authorizationDigest, "authorization_digest");
    ContractRules.sha256Digest(requestDigest, "request_digest");
    ContractRules.required(state, "state");
    createdAt = ContractRules.instant(createdAt, "created_at");
    completedAt = ContractRules.optionalInstant(completedAt);
    if (state == ReadState.CLAIMED && completedAt != null) {
      throw new IllegalArgumentException("CLAIMED observation must not carry completed_at");
    }
    if (state != ReadState.CLAIMED && completedAt == null) {
      throw new IllegalArgumentException(state + " observation must carry completed_at");
    }
    if (completedAt != null && completedAt.isBefore(createdAt)) {
      throw new IllegalArgumentException("completed_at must not be before created_at");
    }
  }

  /** The terminal record for {@code receipt}: its final state, completed at its {@code recordedAt}. */
  public ReadRecord complete(ReadReceipt receipt) {
    ContractRules.required(receipt, "receipt");
    ReadState next = receipt.finalState();
    return new ReadRecord(readId, organizationId, connectionId, connectorRevision, operationId,
        authorizationId, idempotencyKey, authorizationDigest, requestDigest, next, createdAt, receipt.recordedAt());
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadRecord.class, name);
  }
}
