package io.zeocore.springai;

/**
 * The cause ZeoCore attaches to a Spring AI target's {@link io.zeocore.execution.AttemptError} for the host's
 * debugging: the class name of what the model threw and the HTTP status if one was seen, never the original message
 * or cause (Spring AI puts the provider's response body into its exception messages).
 */
public final class SpringAiCallException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String thrownType;
  private final int status;

  SpringAiCallException(Throwable thrown, int status) {
    super("Spring AI call failed: " + thrown.getClass().getName() + (status > 0 ? " (HTTP " + status + ")" : ""));
    this.thrownType = thrown.getClass().getName();
    this.status = status;
  }

  /** The class name of what the model call threw. */
  public String thrownType() {
    return thrownType;
  }

  /** The HTTP status of the failed exchange, 0 when none was seen. */
  public int status() {
    return status;
  }
}
