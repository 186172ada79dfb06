package io.zeocore.connections.read;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.internal.ContractRules;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the read orchestrator hands an {@link ReadDispatcher} after the claim is durable. Unlike the
 * reference, the body is kept out of {@link #toString()} and JSON here too. The array is copied on the way in and out.
 *
 * @param organizationId the trusted organization
 * @param connection the full connection
 * @param connectorRevision the full pinned revision
 * @param operationId the read operation
 * @param readId the read
 * @param requestDigest {@code sha256:} + 64 lowercase hex of {@code requestBody}
 * @param requestBody the raw body
 */
public record ReadDispatchRequest(
    OrganizationId organizationId,
    Connection connection,
    ConnectorRevision connectorRevision,
    OperationId operationId,
    ReadId readId,
    String requestDigest,
    @JsonIgnore byte[] requestBody) {

  public ReadDispatchRequest {
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connection, "connection");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.required(operationId, "operation_id");
    ContractRules.required(readId, "observation_id");
    ContractRules.sha256Digest(requestDigest, "request_digest");
    requestBody = ContractRules.required(requestBody, "request_body").clone();
  }

  /** A copy of the raw request body. */
  @Override
  public byte[] requestBody() {
    return requestBody.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ReadDispatchRequest that
        && organizationId.equals(that.organizationId)
        && connection.equals(that.connection)
        && connectorRevision.equals(that.connectorRevision)
        && operationId.equals(that.operationId)
        && readId.equals(that.readId)
        && requestDigest.equals(that.requestDigest)
        && Arrays.equals(requestBody, that.requestBody);
  }

  @Override
  public int hashCode() {
    return Objects.hash(organizationId, connection, connectorRevision, operationId, readId, requestDigest,
        Arrays.hashCode(requestBody));
  }

  /** Identity and digest only; never the body. */
  @Override
  public String toString() {
    return "ReadDispatchRequest[organizationId=" + organizationId + ", connectionId="
        + connection.connectionId() + ", connectorRevision=" + connectorRevision.revisionId() + ", operationId="
        + operationId + ", readId=" + readId + ", requestDigest=" + requestDigest + ", requestBody=<"
        + requestBody.length + " bytes>]";
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadDispatchRequest.class, name);
  }
}
