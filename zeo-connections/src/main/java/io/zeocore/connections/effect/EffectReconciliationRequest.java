package io.zeocore.connections.effect;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the orchestrator hands an {@link EffectReconciler} for an {@code AMBIGUOUS} effect. The reconciler must
 * inspect the provider (by idempotency key, request digest, provider-side identifiers), never re-issue the effect.
 *
 * <p>The request body is present only when reconciliation runs in the same process right after the dispatch; recovery
 * (after a restart) has only the digest, because request bodies are never persisted. A reconciler must therefore be
 * able to work from {@code idempotencyKey} and {@code requestDigest} alone. The body is kept out of {@link #toString()}
 * and JSON and copied on the way in and out.
 *
 * @param organizationId the trusted organization
 * @param connection the full connection
 * @param connectorRevision the full pinned revision
 * @param operationId the operation
 * @param effectId the effect
 * @param idempotencyKey the idempotency key
 * @param requestDigest {@code sha256:} + 64 lowercase hex of the original body
 * @param dispatchStartedAt when the provider was entered
 * @param requestBody the raw body, or {@code null} when it is not known (recovery)
 */
public record EffectReconciliationRequest(
    OrganizationId organizationId,
    Connection connection,
    ConnectorRevision connectorRevision,
    OperationId operationId,
    EffectId effectId,
    IdempotencyKey idempotencyKey,
    String requestDigest,
    Instant dispatchStartedAt,
    @JsonIgnore byte @Nullable [] requestBody) {

  public EffectReconciliationRequest {
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connection, "connection");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.required(operationId, "operation_id");
    ContractRules.required(effectId, "execution_id");
    ContractRules.required(idempotencyKey, "idempotency_key");
    ContractRules.sha256Digest(requestDigest, "request_digest");
    dispatchStartedAt = ContractRules.instant(dispatchStartedAt, "dispatch_started_at");
    requestBody = requestBody == null ? null : requestBody.clone();
  }

  /** The reconciliation request that follows {@code dispatch} in the same process, with its body. */
  public static EffectReconciliationRequest afterDispatch(EffectDispatchRequest dispatch, Instant dispatchStartedAt) {
    ContractRules.required(dispatch, "dispatch");
    return new EffectReconciliationRequest(dispatch.organizationId(), dispatch.connection(),
        dispatch.connectorRevision(), dispatch.operationId(), dispatch.effectId(), dispatch.idempotencyKey(),
        dispatch.requestDigest(), dispatchStartedAt, dispatch.requestBody());
  }

  /** A copy of the raw request body, or {@code null} when it is not known (recovery after a restart). */
  @Override
  public byte @Nullable [] requestBody() {
    return requestBody == null ? null : requestBody.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EffectReconciliationRequest that
        && organizationId.equals(that.organizationId)
        && connection.equals(that.connection)
        && connectorRevision.equals(that.connectorRevision)
        && operationId.equals(that.operationId)
        && effectId.equals(that.effectId)
        && idempotencyKey.equals(that.idempotencyKey)
        && requestDigest.equals(that.requestDigest)
        && dispatchStartedAt.equals(that.dispatchStartedAt)
        && Arrays.equals(requestBody, that.requestBody);
  }

  @Override
  public int hashCode() {
    return Objects.hash(organizationId, connection, connectorRevision, operationId, effectId, idempotencyKey,
        requestDigest, dispatchStartedAt, Arrays.hashCode(requestBody));
  }

  /** Identity and digest only; never the body. */
  @Override
  public String toString() {
    return "EffectReconciliationRequest[organizationId=" + organizationId + ", connectionId="
        + connection.connectionId() + ", connectorRevision=" + connectorRevision.revisionId() + ", operationId="
        + operationId + ", effectId=" + effectId + ", idempotencyKey=" + idempotencyKey + ", requestDigest="
        + requestDigest + ", dispatchStartedAt=" + dispatchStartedAt + ", requestBody="
        + (requestBody == null ? "<unknown>" : "<" + requestBody.length + " bytes>") + "]";
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectReconciliationRequest.class, name);
  }
}
