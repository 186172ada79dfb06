package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.EffectKind;
import io.zeocore.InvalidFieldException;
import io.zeocore.connections.internal.ContractRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
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
    @Nullable String reconciliationMethod,
    @Nullable String webhookVerificationProfile,
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
      throw new InvalidFieldException("permitted_upstream_origins", "must contain at least one origin");
    }
    requiredProviderScopes = ContractRules.list(requiredProviderScopes, "required_provider_scopes");
    operations = ContractRules.list(operations, "operations");
    if (operations.isEmpty()) {
      throw new InvalidFieldException("operations", "must contain at least one operation");
    }
    if (requestSizeLimitBytes <= 0) {
      throw new InvalidFieldException("request_size_limit_bytes", "must be greater than zero");
    }
    if (responseSizeLimitBytes <= 0) {
      throw new InvalidFieldException("response_size_limit_bytes", "must be greater than zero");
    }
    if (!(timeoutSeconds > 0) || Double.isInfinite(timeoutSeconds)) {
      throw new InvalidFieldException("timeout_seconds", "must be finite and greater than zero");
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

  /**
   * A builder for a revision written by hand, with every optional field at its empty default (no scopes, no fixtures,
   * no redirects, no native idempotency, no reconciliation method or webhook profile). {@link Builder#build()} applies
   * the record's rules.
   */
  public static Builder builder(ConnectorId connectorId, ConnectorRevisionId revisionId) {
    return new Builder(connectorId, revisionId);
  }

  /** Builds a {@link ConnectorRevision} by field name instead of 21 positions. Not thread-safe. */
  public static final class Builder {

    private final ConnectorId connectorId;
    private final ConnectorRevisionId revisionId;
    private @Nullable String provider;
    private @Nullable String authenticationProfile;
    private @Nullable String externalAccountIdentityProbe;
    private @Nullable String healthProbe;
    private @Nullable String credentialInjectionPoint;
    private @Nullable String redactionPolicy;
    private @Nullable String providerErrorMappingVersion;
    private final List<String> permittedUpstreamOrigins = new ArrayList<>();
    private final List<String> requiredProviderScopes = new ArrayList<>();
    private final List<BusinessOperation> operations = new ArrayList<>();
    private long requestSizeLimitBytes;
    private long responseSizeLimitBytes;
    private double timeoutSeconds;
    private boolean followRedirects;
    private @Nullable RiskClass riskClass;
    private boolean providerSupportsNativeIdempotency;
    private @Nullable String reconciliationMethod;
    private @Nullable String webhookVerificationProfile;
    private final List<String> conformanceFixtureIds = new ArrayList<>();

    private Builder(ConnectorId connectorId, ConnectorRevisionId revisionId) {
      this.connectorId = connectorId;
      this.revisionId = revisionId;
    }

    /** The provider's name. */
    public Builder provider(String provider) {
      this.provider = provider;
      return this;
    }

    /** The authentication profile, the identity probe, the health probe and where the credential is injected. */
    public Builder authentication(String authenticationProfile, String externalAccountIdentityProbe,
        String healthProbe, String credentialInjectionPoint) {
      this.authenticationProfile = authenticationProfile;
      this.externalAccountIdentityProbe = externalAccountIdentityProbe;
      this.healthProbe = healthProbe;
      this.credentialInjectionPoint = credentialInjectionPoint;
      return this;
    }

    /** The redaction policy and the version of the provider's error mapping. */
    public Builder policies(String redactionPolicy, String providerErrorMappingVersion) {
      this.redactionPolicy = redactionPolicy;
      this.providerErrorMappingVersion = providerErrorMappingVersion;
      return this;
    }

    /** Adds an origin the revision may call, e.g. {@code https://api.example.com}. */
    public Builder permittedUpstreamOrigin(String origin) {
      permittedUpstreamOrigins.add(origin);
      return this;
    }

    /** Adds a scope a connection must have been granted. */
    public Builder requiredProviderScope(String scope) {
      requiredProviderScopes.add(scope);
      return this;
    }

    /** Adds an operation. */
    public Builder operation(BusinessOperation operation) {
      operations.add(operation);
      return this;
    }

    /** The largest admitted request body and response, in bytes. */
    public Builder sizeLimits(long requestBytes, long responseBytes) {
      this.requestSizeLimitBytes = requestBytes;
      this.responseSizeLimitBytes = responseBytes;
      return this;
    }

    /** The dispatcher's timeout (stored as {@code timeout_seconds}). */
    public Builder timeout(Duration timeout) {
      this.timeoutSeconds = timeout.toNanos() / 1_000_000_000d;
      return this;
    }

    /** Whether the dispatcher follows redirects; must stay {@code false} to pass admission. Default {@code false}. */
    public Builder followRedirects(boolean followRedirects) {
      this.followRedirects = followRedirects;
      return this;
    }

    /** The declared risk. */
    public Builder riskClass(RiskClass riskClass) {
      this.riskClass = riskClass;
      return this;
    }

    /** Whether the provider deduplicates requests natively (informational). Default {@code false}. */
    public Builder providerSupportsNativeIdempotency(boolean supported) {
      this.providerSupportsNativeIdempotency = supported;
      return this;
    }

    /** How ambiguous effects are reconciled at the provider (informational). */
    public Builder reconciliationMethod(String reconciliationMethod) {
      this.reconciliationMethod = reconciliationMethod;
      return this;
    }

    /** How the provider's webhooks are verified. */
    public Builder webhookVerificationProfile(String webhookVerificationProfile) {
      this.webhookVerificationProfile = webhookVerificationProfile;
      return this;
    }

    /** Adds a conformance fixture id. */
    public Builder conformanceFixtureId(String fixtureId) {
      conformanceFixtureIds.add(fixtureId);
      return this;
    }

    /**
     * The revision.
     *
     * @throws IllegalArgumentException naming the first field (by its wire name) that breaks a rule
     */
    @SuppressWarnings("NullAway") // the record's constructor refuses every missing required field, naming it
    public ConnectorRevision build() {
      return new ConnectorRevision(connectorId, revisionId, provider, authenticationProfile,
          externalAccountIdentityProbe, healthProbe, credentialInjectionPoint, redactionPolicy,
          providerErrorMappingVersion, permittedUpstreamOrigins, requiredProviderScopes, operations,
          requestSizeLimitBytes, responseSizeLimitBytes, timeoutSeconds, followRedirects, riskClass,
          providerSupportsNativeIdempotency, reconciliationMethod, webhookVerificationProfile, conformanceFixtureIds);
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ConnectorRevision.class, name);
  }
}
