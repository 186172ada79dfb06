package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How {@link ResilientRunner#runSync} applies a policy's attempt timeout ({@link ResilientRunner#runAsync} always
 * enforces it by cancelling the attempt's future).
 */
public enum DeadlineMode {

  /**
   * The attempt runs on the calling thread and must apply {@link AttemptContext#timeout()} itself: the runner cannot
   * stop in-process code. No extra thread, no hand-off. The default.
   */
  COOPERATIVE("cooperative"),

  /**
   * The attempt runs on a worker thread (a virtual thread on Java 21 and newer, detected at run time; a bounded pool
   * of daemon threads on Java 17). The caller waits at most {@code min(attemptTimeout, remaining)}, then interrupts
   * the worker, records {@link FailureKind#TIMEOUT} and moves on. Interrupting is all Java can do: work that ignores
   * interrupts is abandoned, not stopped, and may still finish later (its result is discarded). The worker does not
   * see the caller's thread-locals (transactions, security context, MDC).
   */
  ENFORCED("enforced");

  private final String wireValue;

  DeadlineMode(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The lowercase wire value, e.g. {@code enforced}. */
  @JsonValue
  public String wireValue() {
    return wireValue;
  }

  /**
   * Parses a wire value or, leniently, the constant name.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static DeadlineMode fromWireValue(String value) {
    return WireValues.parse(DeadlineMode.class, value, DeadlineMode::wireValue);
  }
}
