package io.zeocore.connections.effect;

import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import java.util.regex.Pattern;

/**
 * Thrown by an {@link EffectDispatcher} to say, with certainty, that <em>nothing reached the provider</em>: for example
 * custody could not resolve the connection's secret, the lease had expired, the request could not be built. The
 * {@link EffectOrchestrator} then ends the effect {@code FAILED_SAFE} with {@link #normalizedError()} instead of
 * recording it {@code AMBIGUOUS}, and calls no reconciler.
 *
 * <p>Throw it only before the first byte could have left for the provider; after that point the outcome is unknown and
 * any other exception (which makes the effect {@code AMBIGUOUS}) is the truthful signal. Only an instance thrown by
 * {@code dispatch} itself counts; one found as the cause of another exception does not.
 *
 * <p>The exception carries no cause and no free text: its message is built from a machine reason code (for example
 * {@code CUSTODY_NOT_FOUND}) that is safe to persist in the receipt.
 */
public class DispatchNotStartedException extends Exception {

  private static final long serialVersionUID = 1L;

  private static final Pattern REASON_CODE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");

  private final NormalizedErrorCode errorCode;
  private final String reasonCode;

  /**
   * @param errorCode the receipt's error code, for example {@link NormalizedErrorCode#CONNECTION_REPAIR_REQUIRED}
   * @param reasonCode an upper-case machine code ({@code [A-Z][A-Z0-9_]{0,63}}) saying why nothing was sent
   * @throws IllegalArgumentException if either is missing or the reason code is not a machine code
   */
  public DispatchNotStartedException(NormalizedErrorCode errorCode, String reasonCode) {
    super(message(errorCode, reasonCode), null, false, false);
    this.errorCode = errorCode;
    this.reasonCode = reasonCode;
  }

  /** With error code {@link NormalizedErrorCode#FAILED_SAFE}. */
  public DispatchNotStartedException(String reasonCode) {
    this(NormalizedErrorCode.FAILED_SAFE, reasonCode);
  }

  private static String message(NormalizedErrorCode errorCode, String reasonCode) {
    if (errorCode == null) {
      throw new IllegalArgumentException("error_code is required");
    }
    if (reasonCode == null || !REASON_CODE.matcher(reasonCode).matches()) {
      throw new IllegalArgumentException("reason_code must match [A-Z][A-Z0-9_]{0,63}");
    }
    return "dispatch did not start: " + reasonCode;
  }

  public NormalizedErrorCode errorCode() {
    return errorCode;
  }

  public String reasonCode() {
    return reasonCode;
  }

  /** The error recorded on the {@code FAILED_SAFE} receipt: this code, and the message {@link #getMessage()}. */
  public NormalizedError normalizedError() {
    return new NormalizedError(errorCode, message(errorCode, reasonCode), null);
  }
}
