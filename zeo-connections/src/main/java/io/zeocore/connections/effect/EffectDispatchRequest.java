package io.zeocore.connections.effect;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.internal.ContractRules;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the orchestrator hands an {@link EffectDispatcher}, after {@code DISPATCH_STARTED} is durable. The request body
 * is the exact byte sequence the authorization's digest covers; it is kept out of {@link #toString()} and JSON and is
 * never persisted. The array is copied on the way in and on every {@link #requestBody()} call.
 *
 * @param organizationId the trusted organization
 * @param connection the full connection (its secret handle is what custody resolves)
 * @param connectorRevision the full pinned revision
 * @param operationId from the authorization
 * @param effectId the effect
 * @param idempotencyKey from the authorization; providers with native idempotency should send it
 * @param requestDigest {@code sha256:} + 64 lowercase hex of {@code requestBody}
 * @param requestBody the raw body
 */
public record EffectDispatchRequest(
    OrganizationId organizationId,
    Connection connection,
    ConnectorRevision connectorRevision,
    OperationId operationId,
    EffectId effectId,
    IdempotencyKey idempotencyKey,
    String requestDigest,
    @JsonIgnore byte[] requestBody) {

  public EffectDispatchRequest {
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connection, "connection");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.required(operationId, "operation_id");
    ContractRules.required(effectId, "execution_id");
    ContractRules.required(idempotencyKey, "idempotency_key");
    ContractRules.sha256Digest(requestDigest, "request_digest");
    requestBody = ContractRules.required(requestBody, "request_body").clone();
  }

  /** A copy of the raw request body. */
  @Override
  public byte[] requestBody() {
    return requestBody.clone();
  }

  /** The declared operation this request runs. */
  public BusinessOperation operation() {
    return connectorRevision.findOperation(operationId).orElseThrow(
        () -> new IllegalStateException("operation is not declared by the connector revision"));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EffectDispatchRequest that
        && organizationId.equals(that.organizationId)
        && connection.equals(that.connection)
        && connectorRevision.equals(that.connectorRevision)
        && operationId.equals(that.operationId)
        && effectId.equals(that.effectId)
        && idempotencyKey.equals(that.idempotencyKey)
        && requestDigest.equals(that.requestDigest)
        && Arrays.equals(requestBody, that.requestBody);
  }

  @Override
  public int hashCode() {
    return Objects.hash(organizationId, connection, connectorRevision, operationId, effectId, idempotencyKey,
        requestDigest, Arrays.hashCode(requestBody));
  }

  /** Identity and digest only; never the body. */
  @Override
  public String toString() {
    return "EffectDispatchRequest[organizationId=" + organizationId + ", connectionId=" + connection.connectionId()
        + ", connectorRevision=" + connectorRevision.revisionId() + ", operationId=" + operationId
        + ", effectId=" + effectId + ", idempotencyKey=" + idempotencyKey + ", requestDigest=" + requestDigest
        + ", requestBody=<" + requestBody.length + " bytes>]";
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectDispatchRequest.class, name);
  }
}
