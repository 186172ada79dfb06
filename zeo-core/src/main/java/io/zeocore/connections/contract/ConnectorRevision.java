package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.internal.ContractRules;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * An immutable connector manifest: the provider surface one revision of a connector may touch. It has no
 * organization; a {@link Connection} pins it. Construction enforces the field rules, unique operation ids and a
 * reconciliation strategy on every effectful operation; {@code ConnectorAdmission} re-checks much more.
 *
 * @param connectorId the connector
 * @param revisionId this revision
 * @param provider provider name; not blank
 * @param authenticationProfile not blank
 * @param externalAccountIdentityProbe not blank
 * @param healthProbe not blank
 * @param credentialInjectionPoint not blank
 * @param redactionPolicy not blank
 * @param providerErrorMappingVersion not blank
 * @param permittedUpstreamOrigins at least one origin
 * @param requiredProviderScopes scopes a connection must have been granted; empty when absent
 * @param operations at least one; operation ids unique
 * @param requestSizeLimitBytes largest admitted request body, greater than zero
 * @param responseSizeLimitBytes largest admitted response, greater than zero
 * @param timeoutSeconds the dispatcher's timeout, finite and greater than zero (not enforced by the orchestrator)
 * @param followRedirects must be {@code false} to pass admission
 * @param riskClass declared risk
 * @param providerSupportsNativeIdempotency informational
 * @param reconciliationMethod optional
 * @param webhookVerificationProfile optional
 * @param conformanceFixtureIds empty when absent
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ConnectorRevision(
    ConnectorId connectorId,
    ConnectorRevisionId revisionId,
    String provider,
    String authenticationProfile,
    String externalAccountIdentityProbe,
    String healthProbe,
    String credentialInjectionPoint,
    String redactionPolicy,
    String providerErrorMappingVersion,
    List<String> permittedUpstreamOrigins,
    List<String> requiredProviderScopes,
    List<BusinessOperation> operations,
    long requestSizeLimitBytes,
    long responseSizeLimitBytes,
    double timeoutSeconds,
    boolean followRedirects,
    RiskClass riskClass,
    boolean providerSupportsNativeIdempotency,
    String reconciliationMethod,
    String webhookVerificationProfile,
    List<String> conformanceFixtureIds) {

  public ConnectorRevision {
    ContractRules.required(connectorId, "connector_id");
    ContractRules.required(revisionId, "revision_id");
    ContractRules.text(provider, "provider");
    ContractRules.text(authenticationProfile, "authentication_profile");
    ContractRules.text(externalAccountIdentityProbe, "external_account_identity_probe");
    ContractRules.text(healthProbe, "health_probe");
    ContractRules.text(credentialInjectionPoint, "credential_injection_point");
    ContractRules.text(redactionPolicy, "redaction_policy");
    ContractRules.text(providerErrorMappingVersion, "provider_error_mapping_version");
    permittedUpstreamOrigins = ContractRules.list(permittedUpstreamOrigins, "permitted_upstream_origins");
    if (permittedUpstreamOrigins.isEmpty()) {
      throw new IllegalArgumentException("permitted_upstream_origins must contain at least one origin");
    }
    requiredProviderScopes = ContractRules.list(requiredProviderScopes, "required_provider_scopes");
    operations = ContractRules.list(operations, "operations");
    if (operations.isEmpty()) {
      throw new IllegalArgumentException("operations must contain at least one operation");
    }
    if (requestSizeLimitBytes <= 0) {
      throw new IllegalArgumentException("request_size_limit_bytes must be greater than zero");
    }
    if (responseSizeLimitBytes <= 0) {
      throw new IllegalArgumentException("response_size_limit_bytes must be greater than zero");
    }
    if (!(timeoutSeconds > 0) || Double.isInfinite(timeoutSeconds)) {
      throw new IllegalArgumentException("timeout_seconds must be finite and greater than zero");
    }
    ContractRules.required(riskClass, "risk_class");
    conformanceFixtureIds = ContractRules.list(conformanceFixtureIds, "conformance_fixture_ids");
    Set<OperationId> seen = new HashSet<>();
    for (BusinessOperation operation : operations) {
      if (!seen.add(operation.operationId())) {
        throw new IllegalArgumentException("duplicate operation_id in connector revision");
      }
      if (operation.effect() != EffectKind.READ && operation.reconciliationStrategy() == null) {
        throw new IllegalArgumentException("effectful operation must declare a non-empty reconciliation_strategy");
      }
    }
  }

  /** The declared operation with this id, if any. */
  public Optional<BusinessOperation> findOperation(OperationId operationId) {
    for (BusinessOperation operation : operations) {
      if (operation.operationId().equals(operationId)) {
        return Optional.of(operation);
      }
    }
    return Optional.empty();
  }

  /** {@link #timeoutSeconds()} as a duration, rounded to nanoseconds. */
  public Duration timeout() {
    return Duration.ofNanos(Math.round(timeoutSeconds * 1_000_000_000d));
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ConnectorRevision.class, name);
  }
}
