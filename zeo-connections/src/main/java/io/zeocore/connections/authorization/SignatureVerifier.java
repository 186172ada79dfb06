package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.EffectAuthorization;

/**
 * Verifies the issuer's signature on an authorization. Called by {@link ExactAuthorizationVerifier} at most once per
 * verification and only after every mechanical check has passed. Cryptography is delegated here; there is no default
 * implementation that accepts anything.
 *
 * <p>Implementations return {@code false} for anything they cannot positively verify (unknown issuer, malformed or
 * wrong signature). An exception thrown from here is treated as {@code false} by the verifier (fail closed).
 */
@FunctionalInterface
public interface SignatureVerifier {

  boolean verifySignature(EffectAuthorization authorization);
}
