package io.zeocore.capability;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;
import org.jspecify.annotations.Nullable;

/**
 * How one capability invocation ended, with the reference's lowercase wire values (the constants' names in lower case,
 * what Jackson writes) and {@code ZEO_CAP_*} codes.
 *
 * <p>{@link #TIMED_OUT} is an addition to the reference: a handler that observes its
 * {@link CapabilityContext#remaining()} (or throws a timeout exception) reports it, and resilient targets classify it
 * as {@code TIMEOUT}, which the runner may retry, instead of as a permanent unexpected exception.
 */
public enum CapabilityOutcome implements WireValue.Lowercase {
  /** The handler returned a value of the declared response type. */
  SUCCEEDED(null),
  /** The request is not of the declared type or a guard did not admit it; the handler did not run. */
  GUARD_REJECTED("ZEO_CAP_GUARD_REJECTED"),
  /** Cancellation was observed before or while the handler ran. */
  CANCELLED("ZEO_CAP_CANCELLED"),
  /** The capability's deadline passed before the handler finished. */
  TIMED_OUT("ZEO_CAP_TIMED_OUT"),
  /** A host policy decided not to run the capability. */
  POLICY_SKIPPED("ZEO_CAP_POLICY_SKIPPED"),
  /** The capability is not available right now (its availability check said so, or the handler reported it). */
  UNAVAILABLE("ZEO_CAP_UNAVAILABLE"),
  /** The handler reported that the system behind it failed. */
  INTEGRATION_FAILURE("ZEO_CAP_INTEGRATION_FAILURE"),
  /** The handler returned {@code null}, a value of another type, or no future. */
  INVALID_RETURN("ZEO_CAP_INVALID_RETURN"),
  /** The handler threw something it did not classify. */
  UNEXPECTED_EXCEPTION("ZEO_CAP_UNEXPECTED_EXCEPTION");

  private final @Nullable String code;

  CapabilityOutcome(@Nullable String code) {
    this.code = code;
  }

  /** The {@code ZEO_CAP_*} machine code, {@code null} for {@link #SUCCEEDED}. */
  public @Nullable String code() {
    return code;
  }

  /**
   * Parses a wire value ({@code guard_rejected}) or, leniently, the constant name ({@code GUARD_REJECTED}).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static CapabilityOutcome fromWireValue(String value) {
    return WireValues.parseLenient(CapabilityOutcome.class, value);
  }

  /** Whether the capability was skipped rather than failed: {@link #POLICY_SKIPPED} or {@link #UNAVAILABLE}. */
  public boolean isSkipped() {
    return this == POLICY_SKIPPED || this == UNAVAILABLE;
  }
}
