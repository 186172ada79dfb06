package io.zeocore.capability;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a capability handler to report a classified failure, e.g. {@link #integrationFailure(Throwable)} when the
 * system behind it failed or {@link #unavailable()} when it is down. The message is only the outcome's wire value; the
 * cause is kept for the host's debugging and never copied into a {@link CapabilityResult}.
 */
public final class CapabilityException extends Exception {

  private static final long serialVersionUID = 1L;

  private final CapabilityOutcome outcome;

  /**
   * @param outcome any outcome but {@link CapabilityOutcome#SUCCEEDED}
   * @param cause the underlying failure, or {@code null}
   */
  public CapabilityException(CapabilityOutcome outcome, @Nullable Throwable cause) {
    super(Objects.requireNonNull(outcome, "outcome").wireValue(), cause);
    if (outcome == CapabilityOutcome.SUCCEEDED) {
      throw new IllegalArgumentException("a CapabilityException cannot report success");
    }
    this.outcome = outcome;
  }

  /** {@link CapabilityOutcome#INTEGRATION_FAILURE}. */
  public static CapabilityException integrationFailure(Throwable cause) {
    return new CapabilityException(CapabilityOutcome.INTEGRATION_FAILURE, cause);
  }

  /** {@link CapabilityOutcome#UNAVAILABLE}. */
  public static CapabilityException unavailable() {
    return new CapabilityException(CapabilityOutcome.UNAVAILABLE, null);
  }

  /** {@link CapabilityOutcome#POLICY_SKIPPED}. */
  public static CapabilityException policySkipped() {
    return new CapabilityException(CapabilityOutcome.POLICY_SKIPPED, null);
  }

  /** {@link CapabilityOutcome#TIMED_OUT}. */
  public static CapabilityException timedOut() {
    return new CapabilityException(CapabilityOutcome.TIMED_OUT, null);
  }

  /** {@link CapabilityOutcome#CANCELLED}: the handler observed {@link CapabilityContext#isCancelled()}. */
  public static CapabilityException cancelled() {
    return new CapabilityException(CapabilityOutcome.CANCELLED, null);
  }

  public CapabilityOutcome outcome() {
    return outcome;
  }
}
