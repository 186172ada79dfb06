package io.zeocore.capability;

import org.jspecify.annotations.Nullable;

/**
 * How one capability invocation ended, with the reference's lowercase wire values and {@code ZEO_CAP_*} codes.
 *
 * <p>{@link #TIMED_OUT} is an addition to the reference: a handler that observes its
 * {@link CapabilityContext#remaining()} (or throws a timeout exception) reports it, and resilient targets classify it
 * as {@code TIMEOUT}, which the runner may retry, instead of as a permanent unexpected exception.
 */
public enum CapabilityOutcome {
  /** The handler returned a value of the declared response type. */
  SUCCEEDED("succeeded", null),
  /** The request is not of the declared type or a guard did not admit it; the handler did not run. */
  GUARD_REJECTED("guard_rejected", "ZEO_CAP_GUARD_REJECTED"),
  /** Cancellation was observed before or while the handler ran. */
  CANCELLED("cancelled", "ZEO_CAP_CANCELLED"),
  /** The capability's deadline passed before the handler finished. */
  TIMED_OUT("timed_out", "ZEO_CAP_TIMED_OUT"),
  /** A host policy decided not to run the capability. */
  POLICY_SKIPPED("policy_skipped", "ZEO_CAP_POLICY_SKIPPED"),
  /** The capability is not available right now (its availability check said so, or the handler reported it). */
  UNAVAILABLE("unavailable", "ZEO_CAP_UNAVAILABLE"),
  /** The handler reported that the system behind it failed. */
  INTEGRATION_FAILURE("integration_failure", "ZEO_CAP_INTEGRATION_FAILURE"),
  /** The handler returned {@code null}, a value of another type, or no future. */
  INVALID_RETURN("invalid_return", "ZEO_CAP_INVALID_RETURN"),
  /** The handler threw something it did not classify. */
  UNEXPECTED_EXCEPTION("unexpected_exception", "ZEO_CAP_UNEXPECTED_EXCEPTION");

  private final String wireValue;
  private final String code;

  CapabilityOutcome(String wireValue, String code) {
    this.wireValue = wireValue;
    this.code = code;
  }

  /** The lowercase wire value, e.g. {@code guard_rejected}. */
  public String wireValue() {
    return wireValue;
  }

  /** The {@code ZEO_CAP_*} machine code, {@code null} for {@link #SUCCEEDED}. */
  public @Nullable String code() {
    return code;
  }

  /** Whether the capability was skipped rather than failed: {@link #POLICY_SKIPPED} or {@link #UNAVAILABLE}. */
  public boolean isSkipped() {
    return this == POLICY_SKIPPED || this == UNAVAILABLE;
  }
}
