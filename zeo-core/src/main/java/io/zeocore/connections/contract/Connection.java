package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.internal.ContractRules;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * An organization's binding to one pinned {@link ConnectorRevision}, with the external identity it was verified
 * against, the operations it exposes and the {@link SecretRef} of its credentials. The text form and ordinary JSON show
 * the secret handle redacted.
 *
 * @param connectionId this connection
 * @param organizationId the owning organization
 * @param connectorId the connector
 * @param connectorRevision the pinned revision
 * @param providerApplicationProfile not blank
 * @param verifiedExternalIdentity not blank
 * @param selectedBusinessResources resources reads may select; empty when absent
 * @param grantedProviderScopes empty when absent
 * @param exposedBusinessOperations operations callers may run; no duplicates; empty when absent
 * @param secretHandle where the credentials are held
 * @param status lifecycle status
 * @param health last observed health; {@code UNKNOWN} when absent
 * @param createdAt creation instant (microsecond precision)
 * @param lastVerifiedAt optional
 * @param revokedAt required if and only if {@code status} is {@code REVOKED}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Connection(
    ConnectionId connectionId,
    OrganizationId organizationId,
    ConnectorId connectorId,
    ConnectorRevisionId connectorRevision,
    String providerApplicationProfile,
    String verifiedExternalIdentity,
    List<String> selectedBusinessResources,
    List<String> grantedProviderScopes,
    List<OperationId> exposedBusinessOperations,
    SecretRef secretHandle,
    ConnectionStatus status,
    ConnectionHealth health,
    Instant createdAt,
    Instant lastVerifiedAt,
    Instant revokedAt) {

  public Connection {
    ContractRules.required(connectionId, "connection_id");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connectorId, "connector_id");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.text(providerApplicationProfile, "provider_application_profile");
    ContractRules.text(verifiedExternalIdentity, "verified_external_identity");
    selectedBusinessResources = ContractRules.list(selectedBusinessResources, "selected_business_resources");
    grantedProviderScopes = ContractRules.list(grantedProviderScopes, "granted_provider_scopes");
    exposedBusinessOperations = ContractRules.list(exposedBusinessOperations, "exposed_business_operations");
    Set<OperationId> seen = new HashSet<>();
    for (OperationId operationId : exposedBusinessOperations) {
      if (!seen.add(operationId)) {
        throw new IllegalArgumentException("duplicate operation_id in exposed_business_operations");
      }
    }
    ContractRules.required(secretHandle, "secret_handle");
    ContractRules.required(status, "status");
    health = health == null ? ConnectionHealth.UNKNOWN : health;
    createdAt = ContractRules.instant(createdAt, "created_at");
    lastVerifiedAt = ContractRules.optionalInstant(lastVerifiedAt);
    revokedAt = ContractRules.optionalInstant(revokedAt);
    if (status == ConnectionStatus.REVOKED && revokedAt == null) {
      throw new IllegalArgumentException("REVOKED connection must carry revoked_at");
    }
    if (status != ConnectionStatus.REVOKED && revokedAt != null) {
      throw new IllegalArgumentException("revoked_at may only be set on a REVOKED connection");
    }
  }

  /** Whether {@code operationId} is in {@link #exposedBusinessOperations()}. */
  public boolean exposes(OperationId operationId) {
    return exposedBusinessOperations.contains(operationId);
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(Connection.class, name);
  }
}
