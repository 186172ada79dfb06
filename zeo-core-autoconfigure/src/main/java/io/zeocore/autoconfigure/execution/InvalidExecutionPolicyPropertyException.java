package io.zeocore.autoconfigure.execution;

import org.jspecify.annotations.Nullable;

/**
 * A configured execution policy breaks a rule. Thrown while the {@link ExecutionPolicies} bean is created, so it stops
 * start-up; the failure analyzer turns it into a report naming the property, its value and where it was set.
 *
 * <p>{@link #property()} is the full property path of the offending value: the policy's own
 * ({@code zeocore.execution.policies.<name>.<property>}) or, for an inherited value, the config's
 * ({@code zeocore.execution.configs.<config>.<property>}).
 */
public class InvalidExecutionPolicyPropertyException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final @Nullable String policyName;
  private final String property;
  private final @Nullable String value;
  private final @Nullable String origin;
  private final String rule;

  /**
   * @param policyName the policy being resolved, or {@code null} when a config is broken on its own
   * @param property the full property path
   * @param value the configured value as written, or {@code null} when it is not set
   * @param origin where the value was set (file and line), or {@code null} when unknown
   * @param rule the broken rule, in terms of the properties
   */
  public InvalidExecutionPolicyPropertyException(@Nullable String policyName, String property, @Nullable String value,
      @Nullable String origin, String rule) {
    super(property + ": " + rule + (policyName != null ? " (execution policy '" + policyName + "')" : ""));
    this.policyName = policyName;
    this.property = property;
    this.value = value;
    this.origin = origin;
    this.rule = rule;
  }

  /** The policy being resolved, or {@code null} when a config is broken on its own. */
  public @Nullable String policyName() {
    return policyName;
  }

  /** The full property path of the offending value. */
  public String property() {
    return property;
  }

  /** The configured value as written, or {@code null} when the property is not set. */
  public @Nullable String value() {
    return value;
  }

  /** Where the value was set (file and line), or {@code null} when unknown. */
  public @Nullable String origin() {
    return origin;
  }

  /** The broken rule. */
  public String rule() {
    return rule;
  }
}
