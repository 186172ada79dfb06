package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.AuthorizationVerdict;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Verifies an effect authorization exactly against the trusted runtime intent (organization, connection, connector
 * revision, operation and the digest of the exact request body), in this order, refusing with the first failing
 * check's reason:
 *
 * <ol>
 *   <li>authorization absent: {@code ABSENT}
 *   <li>organization differs: {@code ORGANIZATION_MISMATCH}
 *   <li>connection differs: {@code CONNECTION_MISMATCH}
 *   <li>connector revision differs: {@code CONNECTOR_REVISION_MISMATCH}
 *   <li>operation differs: {@code OPERATION_MISMATCH}
 *   <li>{@code argument_digest} differs from the request digest (exact string): {@code REQUEST_DIGEST_MISMATCH}
 *   <li>audience differs from the expected audience: {@code AUDIENCE_MISMATCH}
 *   <li>issuer not trusted: {@code ISSUER_UNTRUSTED}
 *   <li>{@code now >= expires_at}: {@code EXPIRED}
 *   <li>(ZeoCore addition) {@code issued_at > now + skew}: {@code NOT_YET_VALID}
 *   <li>signature not verified: {@code SIGNATURE_UNVERIFIABLE}. The {@link SignatureVerifier} is called exactly once,
 *       only when every check above passed; an exception from it counts as not verified
 *   <li>nonce already recorded for the <em>trusted</em> organization: {@code REPLAYED}
 * </ol>
 *
 * Otherwise the verdict is authorized and restates the trusted organization, connection and revision, the
 * authorization's operation and id, and the request digest. Every verdict carries {@code checkedAt = now} truncated to
 * microseconds. Immutable and thread-safe; the verifier itself does no I/O except through the nonce lookup, whose
 * exceptions (a store failure is not a refusal) propagate.
 */
public final class ExactAuthorizationVerifier {

  /** The default allowance for an issuer clock ahead of ours: {@code issued_at} may be up to this far in the future. */
  public static final Duration DEFAULT_ISSUED_AT_SKEW = Duration.ofSeconds(60);

  private final SignatureVerifier signatureVerifier;
  private final String expectedAudience;
  private final Set<String> trustedIssuers;
  private final Duration issuedAtSkew;

  /** A verifier with {@link #DEFAULT_ISSUED_AT_SKEW}. */
  public ExactAuthorizationVerifier(SignatureVerifier signatureVerifier, String expectedAudience,
      Set<String> trustedIssuers) {
    this(signatureVerifier, expectedAudience, trustedIssuers, DEFAULT_ISSUED_AT_SKEW);
  }

  /**
   * @param signatureVerifier required; there is no default
   * @param expectedAudience required, not blank
   * @param trustedIssuers required, at least one issuer, none blank
   * @param issuedAtSkew how far {@code issued_at} may lie in the future, zero or positive
   * @throws IllegalArgumentException naming the offending setting
   */
  public ExactAuthorizationVerifier(SignatureVerifier signatureVerifier, String expectedAudience,
      Set<String> trustedIssuers, Duration issuedAtSkew) {
    if (signatureVerifier == null) {
      throw new IllegalArgumentException("signature_verifier is required");
    }
    if (expectedAudience == null || expectedAudience.isBlank()) {
      throw new IllegalArgumentException("expected_audience must be a non-empty string");
    }
    if (trustedIssuers == null || trustedIssuers.isEmpty()) {
      throw new IllegalArgumentException("trusted_issuers must be a non-empty set of issuers");
    }
    for (String issuer : trustedIssuers) {
      if (issuer == null || issuer.isBlank()) {
        throw new IllegalArgumentException("trusted_issuers must not contain empty issuers");
      }
    }
    if (issuedAtSkew == null || issuedAtSkew.isNegative()) {
      throw new IllegalArgumentException("issued_at skew must be zero or positive");
    }
    this.signatureVerifier = signatureVerifier;
    this.expectedAudience = expectedAudience;
    this.trustedIssuers = Set.copyOf(trustedIssuers);
    this.issuedAtSkew = issuedAtSkew;
  }

  /**
   * Verifies {@code authorization} against the trusted intent.
   *
   * @param authorization the caller's authorization, or {@code null}
   * @param organizationId the trusted organization (runtime context, never caller JSON)
   * @param connectionId the connection the caller asks to use
   * @param connectorRevision the revision the caller asks to use
   * @param operationId the operation the caller asks to run
   * @param requestDigest {@code sha256:} + hex of the exact request body ({@link io.zeocore.connections.contract.Digests})
   * @param now the verification instant
   * @param nonces the replay lookup, queried with the trusted organization
   * @return a verdict with exactly one reason when refused
   * @throws IllegalArgumentException if a trusted argument is missing (a programming error, not a refusal)
   */
  public AuthorizationVerdict verify(@Nullable EffectAuthorization authorization, OrganizationId organizationId,
      ConnectionId connectionId, ConnectorRevisionId connectorRevision, OperationId operationId,
      String requestDigest, Instant now, AuthorizationNonceLookup nonces) {
    if (now == null) {
      throw new IllegalArgumentException("now must be an instant");
    }
    requireTrusted(organizationId, "organization_id");
    requireTrusted(connectionId, "connection_id");
    requireTrusted(connectorRevision, "connector_revision");
    requireTrusted(operationId, "operation_id");
    if (requestDigest == null || requestDigest.isBlank()) {
      throw new IllegalArgumentException("request_digest must be a non-empty string");
    }
    requireTrusted(nonces, "nonce lookup");
    Instant checkedAt = now.truncatedTo(ChronoUnit.MICROS);

    if (authorization == null) {
      return AuthorizationVerdict.refused(AuthorizationRefusalReason.ABSENT, checkedAt);
    }
    AuthorizationRefusalReason reason = firstFailure(authorization, organizationId, connectionId, connectorRevision,
        operationId, requestDigest, checkedAt, nonces);
    if (reason != null) {
      return AuthorizationVerdict.refused(reason, checkedAt);
    }
    return AuthorizationVerdict.authorized(organizationId, connectionId, connectorRevision,
        authorization.operationId(), authorization.authorizationId(), requestDigest, checkedAt);
  }

  private @Nullable AuthorizationRefusalReason firstFailure(EffectAuthorization authorization,
      OrganizationId organizationId,
      ConnectionId connectionId, ConnectorRevisionId connectorRevision, OperationId operationId,
      String requestDigest, Instant now, AuthorizationNonceLookup nonces) {
    if (!authorization.organizationId().equals(organizationId)) {
      return AuthorizationRefusalReason.ORGANIZATION_MISMATCH;
    }
    if (!authorization.connectionId().equals(connectionId)) {
      return AuthorizationRefusalReason.CONNECTION_MISMATCH;
    }
    if (!authorization.connectorRevision().equals(connectorRevision)) {
      return AuthorizationRefusalReason.CONNECTOR_REVISION_MISMATCH;
    }
    if (!authorization.operationId().equals(operationId)) {
      return AuthorizationRefusalReason.OPERATION_MISMATCH;
    }
    if (!authorization.argumentDigest().equals(requestDigest)) {
      return AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH;
    }
    if (!authorization.audience().equals(expectedAudience)) {
      return AuthorizationRefusalReason.AUDIENCE_MISMATCH;
    }
    if (!trustedIssuers.contains(authorization.issuer())) {
      return AuthorizationRefusalReason.ISSUER_UNTRUSTED;
    }
    if (authorization.isExpiredAt(now)) {
      return AuthorizationRefusalReason.EXPIRED;
    }
    if (authorization.issuedAt().isAfter(now.plus(issuedAtSkew))) {
      return AuthorizationRefusalReason.NOT_YET_VALID;
    }
    if (!signatureVerified(authorization)) {
      return AuthorizationRefusalReason.SIGNATURE_UNVERIFIABLE;
    }
    if (nonces.hasAuthorizationNonce(organizationId, authorization.nonce())) {
      return AuthorizationRefusalReason.REPLAYED;
    }
    return null;
  }

  /**
   * Whether {@code authorization} names a trusted issuer and its signature verifies under that issuer's keys; nothing
   * else is checked (not the intent, not the validity window, not the nonce). The effect orchestrator uses it to tell
   * an authenticated refusal, which it audits durably, from unauthenticated input, which it only counts.
   */
  public boolean authenticates(EffectAuthorization authorization) {
    return authorization != null && trustedIssuers.contains(authorization.issuer())
        && signatureVerified(authorization);
  }

  private boolean signatureVerified(EffectAuthorization authorization) {
    try {
      return signatureVerifier.verifySignature(authorization);
    } catch (RuntimeException e) {
      return false; // fail closed; the exception text is dropped, it may describe key material
    }
  }

  private static void requireTrusted(Object value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " is required");
    }
  }

  /** The expected audience. */
  public String expectedAudience() {
    return expectedAudience;
  }

  /** The trusted issuers (immutable). */
  public Set<String> trustedIssuers() {
    return trustedIssuers;
  }

  /** How far {@code issued_at} may lie in the future. */
  public Duration issuedAtSkew() {
    return issuedAtSkew;
  }

  @Override
  public String toString() {
    return "ExactAuthorizationVerifier[audience=" + expectedAudience + ", trustedIssuers=" + trustedIssuers
        + ", issuedAtSkew=" + issuedAtSkew + "]";
  }
}
