package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * One snapshot of a durable effect. Snapshots are persisted (and appended to history) before any provider
 * call; each later snapshot differs only in {@code state}, {@code updatedAt} and {@code completedAt}, the identity
 * fields never change ({@link #hasSameIdentityAs}).
 *
 * <p>{@code completedAt} is present exactly when {@code state} is terminal ({@code SUCCEEDED}, {@code FAILED_SAFE},
 * {@code REFUSED}); {@code AMBIGUOUS} is not terminal and carries none. Instants are held at microsecond precision.
 *
 * @param effectId chosen by the caller
 * @param organizationId the trusted organization
 * @param connectionId from the authorization
 * @param connectorRevision from the authorization
 * @param operationId from the authorization
 * @param authorizationId from the authorization
 * @param idempotencyKey from the authorization
 * @param authorizationDigest digest of the whole authorization; not blank (format not checked here)
 * @param requestDigest digest of the raw request body; not blank (format not checked here)
 * @param state current state
 * @param createdAt when the CREATED snapshot was made
 * @param updatedAt when this snapshot was made; never before {@code createdAt}
 * @param completedAt required if and only if {@code state} is terminal
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EffectRecord(
    @JsonProperty("execution_id") EffectId effectId,
    OrganizationId organizationId,
    ConnectionId connectionId,
    ConnectorRevisionId connectorRevision,
    OperationId operationId,
    AuthorizationId authorizationId,
    IdempotencyKey idempotencyKey,
    String authorizationDigest,
    String requestDigest,
    EffectState state,
    Instant createdAt,
    Instant updatedAt,
    @Nullable Instant completedAt) {

  public EffectRecord {
    ContractRules.required(effectId, "execution_id");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connectionId, "connection_id");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.required(operationId, "operation_id");
    ContractRules.required(authorizationId, "authorization_id");
    ContractRules.required(idempotencyKey, "idempotency_key");
    ContractRules.text(authorizationDigest, "authorization_digest");
    ContractRules.text(requestDigest, "request_digest");
    ContractRules.required(state, "state");
    createdAt = ContractRules.instant(createdAt, "created_at");
    updatedAt = ContractRules.instant(updatedAt, "updated_at");
    completedAt = ContractRules.optionalInstant(completedAt);
    if (updatedAt.isBefore(createdAt)) {
      throw new IllegalArgumentException("updated_at must not be before created_at");
    }
    if (state.isTerminal() && completedAt == null) {
      throw new IllegalArgumentException("terminal execution state " + state + " must carry completed_at");
    }
    if (!state.isTerminal() && completedAt != null) {
      throw new IllegalArgumentException("non-terminal execution state " + state + " must not carry completed_at");
    }
  }

  /**
   * The next snapshot: {@code next} at {@code at}, with {@code completedAt = at} when {@code next} is terminal.
   *
   * @throws IllegalStateException if {@code this.state -> next} is not an edge of {@link EffectState}
   * @throws IllegalArgumentException if {@code at} is before {@link #updatedAt()}
   */
  public EffectRecord transitionTo(EffectState next, Instant at) {
    ContractRules.required(next, "state");
    ContractRules.required(at, "updated_at");
    if (!state.canTransitionTo(next)) {
      throw new IllegalStateException("execution transition " + state + " -> " + next + " is not allowed");
    }
    if (at.isBefore(updatedAt)) {
      throw new IllegalArgumentException("updated_at must be monotonic: the next snapshot is before this one");
    }
    return new EffectRecord(effectId, organizationId, connectionId, connectorRevision, operationId, authorizationId,
        idempotencyKey, authorizationDigest, requestDigest, next, createdAt, at, next.isTerminal() ? at : null);
  }

  /** Whether every identity field (all but {@code state}, {@code updatedAt}, {@code completedAt}) equals {@code other}'s. */
  public boolean hasSameIdentityAs(EffectRecord other) {
    return other != null
        && effectId.equals(other.effectId)
        && organizationId.equals(other.organizationId)
        && connectionId.equals(other.connectionId)
        && connectorRevision.equals(other.connectorRevision)
        && operationId.equals(other.operationId)
        && authorizationId.equals(other.authorizationId)
        && idempotencyKey.equals(other.idempotencyKey)
        && authorizationDigest.equals(other.authorizationDigest)
        && requestDigest.equals(other.requestDigest)
        && createdAt.equals(other.createdAt);
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectRecord.class, name);
  }
}
