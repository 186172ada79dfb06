package io.zeocore.connections.custody;

/**
 * The machine codes of {@link CustodyException}. Each code says whether the provider callback had been entered when
 * the failure happened ({@link #providerCalled()}): only {@link #CUSTODY_PROVIDER_FAILED} and
 * {@link #CUSTODY_INVALID_RESULT} are raised after the callback was entered; every other code is raised before it, so
 * nothing can have reached the provider through custody.
 */
public enum CustodyErrorCode {

  /** The handle is not a ZeoCore secret-store handle of the calling organization. Raised before any backend access. */
  CUSTODY_SCOPE_MISMATCH("secret handle does not belong to the organization"),

  /** The secret store holds no secret under the handle. */
  CUSTODY_NOT_FOUND("secret not found"),

  /** The secret store's backend failed (I/O, keystore, closed store); the backend's own error is discarded. */
  CUSTODY_BACKEND_FAILURE("secret store backend failed"),

  /** The lease was never issued by this store, was already consumed, or was evicted after expiry. */
  CUSTODY_LEASE_UNKNOWN("lease is unknown or already consumed"),

  /** The lease was issued for another handle or another organization than the ones presented. */
  CUSTODY_LEASE_BINDING_MISMATCH("lease binding mismatch"),

  /** The lease's expiry has been reached, or the presented expiry differs from the issued one. */
  CUSTODY_LEASE_EXPIRED("lease expired"),

  /** The provider callback threw; its exception (and so any text it carried) was discarded. */
  CUSTODY_PROVIDER_FAILED("provider call failed inside custody"),

  /** The provider callback returned no result, or a result that repeats the secret material. */
  CUSTODY_INVALID_RESULT("invalid custody result"),

  /** Secret material was empty: refused on {@code put}/{@code rotate}, or read back empty from the backend. */
  CUSTODY_EMPTY_MATERIAL("secret material must be non-empty");

  private final String description;

  CustodyErrorCode(String description) {
    this.description = description;
  }

  /**
   * Whether the provider callback had been entered when a failure with this code happened. {@code false} means no
   * provider call happened through custody, so the effect is known not to have been dispatched.
   */
  public boolean providerCalled() {
    return this == CUSTODY_PROVIDER_FAILED || this == CUSTODY_INVALID_RESULT;
  }

  /** A fixed, human-readable description; it never contains a handle, material or provider text. */
  public String description() {
    return description;
  }
}
