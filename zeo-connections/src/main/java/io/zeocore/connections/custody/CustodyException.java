package io.zeocore.connections.custody;

/**
 * A sanitized custody failure. Its message is fixed by its {@link #code()} ({@code CUSTODY_NOT_FOUND: secret not
 * found}) and never contains a secret handle, secret material or provider text. It never has a cause (and
 * {@link #initCause} is refused) and suppression is disabled, so that no exception carrying a secret can be chained to
 * it. Whatever failed underneath (a provider exception, a keystore error) is discarded; custody logs only its class
 * name.
 *
 * <p>{@link #providerCalled()} tells failures raised before the provider callback was entered (scope, lookup, backend,
 * lease and empty-material failures: nothing was sent through custody) from failures raised after it was entered
 * (provider exception, invalid result: the outcome at the provider is unknown). {@link CustodyEffectDispatcher} turns
 * the former into {@link io.zeocore.connections.effect.DispatchNotStartedException}, so that the orchestrator records the
 * effect {@code FAILED_SAFE} rather than {@code AMBIGUOUS}.
 */
public class CustodyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final CustodyErrorCode code;

  /** A custody failure with the fixed message of {@code code}. */
  public CustodyException(CustodyErrorCode code) {
    super(message(code), null, false, true);
    this.code = code;
  }

  private static String message(CustodyErrorCode code) {
    if (code == null) {
      throw new IllegalArgumentException("code is required");
    }
    return code.name() + ": " + code.description();
  }

  /** The machine code. */
  public CustodyErrorCode code() {
    return code;
  }

  /**
   * Whether the provider callback had been entered. {@code false}: nothing reached the provider through custody, so
   * an orchestrator may record the effect as not dispatched instead of ambiguous.
   */
  public boolean providerCalled() {
    return code.providerCalled();
  }
}
