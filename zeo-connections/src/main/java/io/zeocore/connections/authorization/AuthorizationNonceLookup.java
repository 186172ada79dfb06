package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.OrganizationId;

/**
 * Tells the verifier whether an authorization nonce was already consumed. Nonces are one-use per organization and
 * shared by effects and reads. The lookup is a fast refusal path; the store's unique constraint on
 * (organization, nonce) inside the claim transaction decides races.
 */
@FunctionalInterface
public interface AuthorizationNonceLookup {

  /** Whether {@code nonce} was already recorded for {@code organizationId} (never for another organization). */
  boolean hasAuthorizationNonce(OrganizationId organizationId, String nonce);
}
