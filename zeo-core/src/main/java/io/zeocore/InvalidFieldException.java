package io.zeocore;

/**
 * A value given to a ZeoCore builder, record or factory broke a rule. {@link #field()} names what was wrong in the
 * caller's terms (the Java property or record component, e.g. {@code terminationGrace}, {@code baseUrl};
 * {@code argv[0]} for an element), {@link #rule()} says what it must be ({@code cannot be negative}). The message is
 * the two together. Neither ever contains the rejected value: it may be a secret.
 *
 * <p>Hosts turn the field into their own configuration key; ZeoCore's Spring Boot starter reports
 * {@code zeocore.subprocess.providers.local.termination-grace} with the rule, for example.
 */
public class InvalidFieldException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String field;
  private final String rule;

  /**
   * @param field the field in Java form
   * @param rule what the value must be, without the field's name
   */
  public InvalidFieldException(String field, String rule) {
    super(field + " " + rule);
    this.field = field;
    this.rule = rule;
  }

  /** The field that broke the rule, in Java form. */
  public String field() {
    return field;
  }

  /** The rule, without the field's name. */
  public String rule() {
    return rule;
  }
}
