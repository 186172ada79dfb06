package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A signed permission, issued by the authority, to run one business operation once with one exact request body. All
 * scoping fields are authoritative: the verifier compares them with the trusted runtime context and refuses on the
 * first difference. {@code argumentDigest} must equal the request digest ({@code sha256:} + 64 lowercase hex of the
 * raw body bytes).
 *
 * <p>The signature covers the canonical JSON of every other field ({@link AuthorizationCanonicalForm}). Instants are
 * held at microsecond precision, as the canonical form writes them. Every text field must be non-blank (the reference
 * only required one character; a whitespace-only audience or issuer is refused here).
 *
 * @param authorizationId this authorization
 * @param organizationId organization the authorization is for
 * @param seatId carried, never checked
 * @param runtimeBindingId carried, never checked
 * @param packetId carried, never checked
 * @param attemptId carried, never checked
 * @param connectionId connection it may use
 * @param connectorRevision revision it may use
 * @param operationId operation it may run
 * @param argumentDigest digest of the exact request body
 * @param idempotencyKey the idempotency key of the effect
 * @param approvalRefs carried, never checked; empty when absent
 * @param issuedAt issue instant
 * @param expiresAt strictly after {@code issuedAt}; the authorization is expired at and after this instant
 * @param nonce one-use value, unique per organization
 * @param audience the verifier's expected audience
 * @param issuer the issuing authority; must be trusted
 * @param signature base64url signature over the canonical form
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EffectAuthorization(
    AuthorizationId authorizationId,
    OrganizationId organizationId,
    String seatId,
    String runtimeBindingId,
    String packetId,
    String attemptId,
    ConnectionId connectionId,
    ConnectorRevisionId connectorRevision,
    OperationId operationId,
    String argumentDigest,
    IdempotencyKey idempotencyKey,
    List<String> approvalRefs,
    Instant issuedAt,
    Instant expiresAt,
    String nonce,
    String audience,
    String issuer,
    String signature) {

  public EffectAuthorization {
    ContractRules.required(authorizationId, "authorization_id");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.text(seatId, "seat_id");
    ContractRules.text(runtimeBindingId, "runtime_binding_id");
    ContractRules.text(packetId, "packet_id");
    ContractRules.text(attemptId, "attempt_id");
    ContractRules.required(connectionId, "connection_id");
    ContractRules.required(connectorRevision, "connector_revision");
    ContractRules.required(operationId, "operation_id");
    ContractRules.text(argumentDigest, "argument_digest");
    ContractRules.required(idempotencyKey, "idempotency_key");
    approvalRefs = ContractRules.list(approvalRefs, "approval_refs");
    issuedAt = ContractRules.instant(issuedAt, "issued_at");
    expiresAt = ContractRules.instant(expiresAt, "expires_at");
    if (!expiresAt.isAfter(issuedAt)) {
      throw new IllegalArgumentException("expires_at must be strictly after issued_at");
    }
    ContractRules.text(nonce, "nonce");
    ContractRules.text(audience, "audience");
    ContractRules.text(issuer, "issuer");
    ContractRules.text(signature, "signature");
  }

  /** Whether the authorization is expired at {@code instant}: {@code instant >= expiresAt} (the boundary counts). */
  public boolean isExpiredAt(Instant instant) {
    return !ContractRules.required(instant, "instant").isBefore(expiresAt);
  }

  /** A copy with another signature; every other field is kept. */
  public EffectAuthorization withSignature(String newSignature) {
    return new EffectAuthorization(authorizationId, organizationId, seatId, runtimeBindingId, packetId, attemptId,
        connectionId, connectorRevision, operationId, argumentDigest, idempotencyKey, approvalRefs, issuedAt, expiresAt,
        nonce, audience, issuer, newSignature);
  }

  /**
   * A builder for an authorization an issuer writes, by field name instead of 18 positions. Approval references start
   * empty; every other field must be set. {@link Builder#build()} applies this record's rules.
   * {@code AuthorizationSigner.sign(Builder)} signs what a builder describes without a placeholder signature.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link EffectAuthorization} field by field. Not thread-safe; reusable (each build is a new record). */
  public static final class Builder {

    private @Nullable AuthorizationId authorizationId;
    private @Nullable OrganizationId organizationId;
    private @Nullable String seatId;
    private @Nullable String runtimeBindingId;
    private @Nullable String packetId;
    private @Nullable String attemptId;
    private @Nullable ConnectionId connectionId;
    private @Nullable ConnectorRevisionId connectorRevision;
    private @Nullable OperationId operationId;
    private @Nullable String argumentDigest;
    private @Nullable IdempotencyKey idempotencyKey;
    private final List<String> approvalRefs = new ArrayList<>();
    private @Nullable Instant issuedAt;
    private @Nullable Instant expiresAt;
    private @Nullable String nonce;
    private @Nullable String audience;
    private @Nullable String issuer;
    private @Nullable String signature;

    private Builder() {}

    /** This authorization's id. */
    public Builder authorizationId(AuthorizationId authorizationId) {
      this.authorizationId = authorizationId;
      return this;
    }

    /** The organization the authorization is for. */
    public Builder organizationId(OrganizationId organizationId) {
      this.organizationId = organizationId;
      return this;
    }

    /** Carried, never checked. */
    public Builder seatId(String seatId) {
      this.seatId = seatId;
      return this;
    }

    /** Carried, never checked. */
    public Builder runtimeBindingId(String runtimeBindingId) {
      this.runtimeBindingId = runtimeBindingId;
      return this;
    }

    /** Carried, never checked. */
    public Builder packetId(String packetId) {
      this.packetId = packetId;
      return this;
    }

    /** Carried, never checked. */
    public Builder attemptId(String attemptId) {
      this.attemptId = attemptId;
      return this;
    }

    /** The connection it may use. */
    public Builder connectionId(ConnectionId connectionId) {
      this.connectionId = connectionId;
      return this;
    }

    /** The connector revision it may use. */
    public Builder connectorRevision(ConnectorRevisionId connectorRevision) {
      this.connectorRevision = connectorRevision;
      return this;
    }

    /** The operation it may run. */
    public Builder operationId(OperationId operationId) {
      this.operationId = operationId;
      return this;
    }

    /** The digest of the exact request body, as {@link Digests#requestDigest(byte[])} computes it. */
    public Builder argumentDigest(String argumentDigest) {
      this.argumentDigest = argumentDigest;
      return this;
    }

    /** The idempotency key of the effect. */
    public Builder idempotencyKey(IdempotencyKey idempotencyKey) {
      this.idempotencyKey = idempotencyKey;
      return this;
    }

    /** Adds an approval reference (carried, never checked). */
    public Builder approvalRef(String approvalRef) {
      approvalRefs.add(approvalRef);
      return this;
    }

    /** The issue instant. */
    public Builder issuedAt(Instant issuedAt) {
      this.issuedAt = issuedAt;
      return this;
    }

    /** The first instant at which it is expired; strictly after the issue instant. */
    public Builder expiresAt(Instant expiresAt) {
      this.expiresAt = expiresAt;
      return this;
    }

    /** The one-use value, unique per organization. */
    public Builder nonce(String nonce) {
      this.nonce = nonce;
      return this;
    }

    /** The verifier's expected audience. */
    public Builder audience(String audience) {
      this.audience = audience;
      return this;
    }

    /** The issuing authority. */
    public Builder issuer(String issuer) {
      this.issuer = issuer;
      return this;
    }

    /** The base64url signature over the canonical form of every other field. */
    public Builder signature(String signature) {
      this.signature = signature;
      return this;
    }

    /**
     * The authorization.
     *
     * @throws IllegalArgumentException naming the first field (by its wire name) that is missing or breaks a rule
     */
    @SuppressWarnings("NullAway") // the record's constructor refuses every missing required field, naming it
    public EffectAuthorization build() {
      return new EffectAuthorization(authorizationId, organizationId, seatId, runtimeBindingId, packetId, attemptId,
          connectionId, connectorRevision, operationId, argumentDigest, idempotencyKey, approvalRefs, issuedAt,
          expiresAt, nonce, audience, issuer, signature);
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectAuthorization.class, name);
  }
}
