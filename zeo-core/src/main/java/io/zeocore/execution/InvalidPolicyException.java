package io.zeocore.execution;

/**
 * An {@link ExecutionPolicy} broke a rule. {@link #field()} names the policy component in Java form
 * ({@code backoff}, {@code retryableFailures}, …) so hosts can point at their own configuration key; the message is
 * the reference's rule text.
 */
public final class InvalidPolicyException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String field;

  public InvalidPolicyException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The policy component that broke the rule. */
  public String field() {
    return field;
  }
}
