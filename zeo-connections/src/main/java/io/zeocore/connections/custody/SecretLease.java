package io.zeocore.connections.custody;

import io.zeocore.connections.contract.SecretRef;
import java.time.Instant;

/**
 * Proof that a {@link SecretStore} found a secret for an organization at {@code resolvedAt}: a one-shot right to have
 * the material read once inside the custody window, until {@code expiresAt} (exclusive). It carries no material.
 *
 * <p>Only the store that issued a lease honours it, and only once: the first redemption consumes it whatever happens
 * next. It is valid while {@code now < expiresAt}; at {@code now == expiresAt} it has expired. A lease whose fields
 * differ from what the store registered (another ref, another organization, another expiry) is refused. The text form
 * shows the ref redacted.
 *
 * @param ref the secret the lease is for
 * @param leaseId the random identifier the store registered
 * @param resolvedAt when the store issued the lease
 * @param expiresAt when the lease expires; strictly after {@code resolvedAt}
 */
public record SecretLease(SecretRef ref, String leaseId, Instant resolvedAt, Instant expiresAt) {

  public SecretLease {
    if (ref == null) {
      throw new IllegalArgumentException("ref is required");
    }
    if (leaseId == null || leaseId.isBlank()) {
      throw new IllegalArgumentException("lease_id must not be empty or whitespace only");
    }
    if (resolvedAt == null) {
      throw new IllegalArgumentException("resolved_at is required");
    }
    if (expiresAt == null) {
      throw new IllegalArgumentException("expires_at is required");
    }
    if (!expiresAt.isAfter(resolvedAt)) {
      throw new IllegalArgumentException("expires_at must be strictly after resolved_at");
    }
  }

  /** Whether the lease has expired at {@code now}: {@code now >= expiresAt}. */
  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
