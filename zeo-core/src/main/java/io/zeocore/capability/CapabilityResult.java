package io.zeocore.capability;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of one capability invocation: never an exception. Carries an outcome, the value of a success and whether
 * the handler was entered; never exception or provider text.
 *
 * <p>{@link #toString()} leaves the value out: results are logged, values may hold provider data.
 *
 * @param outcome how the invocation ended
 * @param value the handler's value for {@link CapabilityOutcome#SUCCEEDED}, {@code null} otherwise
 * @param handlerStarted whether the handler was entered (so the system behind it may have been reached); always
 *     {@code true} for a success
 * @param <R> the response type
 */
public record CapabilityResult<R>(CapabilityOutcome outcome, @Nullable R value, boolean handlerStarted) {

  public CapabilityResult {
    Objects.requireNonNull(outcome, "outcome");
    if (outcome == CapabilityOutcome.SUCCEEDED) {
      if (value == null) {
        throw new IllegalArgumentException("a successful capability result requires a value");
      }
      if (!handlerStarted) {
        throw new IllegalArgumentException("a successful capability result requires the handler to have started");
      }
    } else if (value != null) {
      throw new IllegalArgumentException("a non-success capability result cannot carry a value");
    }
  }

  /** A success carrying {@code value}. */
  public static <R> CapabilityResult<R> success(R value) {
    return new CapabilityResult<>(CapabilityOutcome.SUCCEEDED, value, true);
  }

  /** A result without a value. */
  public static <R> CapabilityResult<R> failure(CapabilityOutcome outcome, boolean handlerStarted) {
    if (outcome == CapabilityOutcome.SUCCEEDED) {
      throw new IllegalArgumentException("use success(value) for a successful result");
    }
    return new CapabilityResult<>(outcome, null, handlerStarted);
  }

  /** Whether the outcome is {@link CapabilityOutcome#SUCCEEDED}. */
  public boolean isSuccess() {
    return outcome == CapabilityOutcome.SUCCEEDED;
  }

  /** The outcome's {@code ZEO_CAP_*} code, {@code null} for a success. */
  public @Nullable String code() {
    return outcome.code();
  }

  @Override
  public String toString() {
    return "CapabilityResult[outcome=" + outcome.wireValue() + ", code=" + code() + ", handlerStarted="
        + handlerStarted + "]";
  }
}
