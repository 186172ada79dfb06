package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
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
    @Nullable Instant lastVerifiedAt,
    @Nullable Instant revokedAt) {

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

  /**
   * A builder for a connection an application records (when an organization connects an account), by field name
   * instead of 15 positions. The three lists start empty, the health {@code UNKNOWN}, the optional instants unset;
   * every other field must be set. {@link Builder#build()} applies this record's rules.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Connection} field by field. Not thread-safe; reusable (each build is a new record). */
  public static final class Builder {

    private @Nullable ConnectionId connectionId;
    private @Nullable OrganizationId organizationId;
    private @Nullable ConnectorId connectorId;
    private @Nullable ConnectorRevisionId connectorRevision;
    private @Nullable String providerApplicationProfile;
    private @Nullable String verifiedExternalIdentity;
    private final List<String> selectedBusinessResources = new ArrayList<>();
    private final List<String> grantedProviderScopes = new ArrayList<>();
    private final List<OperationId> exposedBusinessOperations = new ArrayList<>();
    private @Nullable SecretRef secretHandle;
    private @Nullable ConnectionStatus status;
    private @Nullable ConnectionHealth health;
    private @Nullable Instant createdAt;
    private @Nullable Instant lastVerifiedAt;
    private @Nullable Instant revokedAt;

    private Builder() {}

    /** This connection's id. */
    public Builder connectionId(ConnectionId connectionId) {
      this.connectionId = connectionId;
      return this;
    }

    /** The owning organization. */
    public Builder organizationId(OrganizationId organizationId) {
      this.organizationId = organizationId;
      return this;
    }

    /** The connector and the revision the connection is pinned to. */
    public Builder connector(ConnectorId connectorId, ConnectorRevisionId connectorRevision) {
      this.connectorId = connectorId;
      this.connectorRevision = connectorRevision;
      return this;
    }

    /** The provider application profile and the external identity the connection was verified against. */
    public Builder identity(String providerApplicationProfile, String verifiedExternalIdentity) {
      this.providerApplicationProfile = providerApplicationProfile;
      this.verifiedExternalIdentity = verifiedExternalIdentity;
      return this;
    }

    /** Adds a resource reads may select. */
    public Builder selectedBusinessResource(String resource) {
      selectedBusinessResources.add(resource);
      return this;
    }

    /** Adds a scope the provider granted. */
    public Builder grantedProviderScope(String scope) {
      grantedProviderScopes.add(scope);
      return this;
    }

    /** Adds an operation callers may run through this connection (each at most once). */
    public Builder exposedBusinessOperation(OperationId operationId) {
      exposedBusinessOperations.add(operationId);
      return this;
    }

    /** Where the credentials are held. */
    public Builder secretHandle(SecretRef secretHandle) {
      this.secretHandle = secretHandle;
      return this;
    }

    /** The lifecycle status; {@code REVOKED} needs {@link #revokedAt}. */
    public Builder status(ConnectionStatus status) {
      this.status = status;
      return this;
    }

    /** The last observed health; {@code UNKNOWN} when not set. */
    public Builder health(ConnectionHealth health) {
      this.health = health;
      return this;
    }

    /** The creation instant. */
    public Builder createdAt(Instant createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    /** When the connection was last verified. */
    public Builder lastVerifiedAt(Instant lastVerifiedAt) {
      this.lastVerifiedAt = lastVerifiedAt;
      return this;
    }

    /** When it was revoked; only with the status {@code REVOKED}. */
    public Builder revokedAt(Instant revokedAt) {
      this.revokedAt = revokedAt;
      return this;
    }

    /**
     * The connection.
     *
     * @throws IllegalArgumentException naming the first field (by its wire name) that is missing or breaks a rule
     */
    @SuppressWarnings("NullAway") // the record's constructor refuses every missing required field, naming it
    public Connection build() {
      return new Connection(connectionId, organizationId, connectorId, connectorRevision, providerApplicationProfile,
          verifiedExternalIdentity, selectedBusinessResources, grantedProviderScopes, exposedBusinessOperations,
          secretHandle, status, health, createdAt, lastVerifiedAt, revokedAt);
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(Connection.class, name);
  }
}
