package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;

/**
 * The terminal outcome of a run of the {@link ResilientRunner}.
 *
 * <ul>
 *   <li>{@link #SUCCEEDED}: a value, the selected target, its truthful {@link ExecutionMode} and every attempt;</li>
 *   <li>{@link #EXHAUSTED}: the plan or the total budget ran out after a retryable failure;</li>
 *   <li>{@link #FAILED_SAFE}: a non-retryable failure ended the run without a success claim;</li>
 *   <li>{@link #CANCELLED}: cancellation was observed before a call, after a failed call or during a wait;</li>
 *   <li>{@link #REFUSED}: the policy or target configuration barred execution (no attempts, a configuration machine
 *       code) or an attempt failed with {@link FailureKind#VALIDATION} / {@link FailureKind#AUTHORIZATION}
 *       (attempts present, failure kind set). Tell the two apart by {@code machineCode} and {@code attempts}.</li>
 * </ul>
 */
public enum ExecutionOutcome implements WireValue.Lowercase {
  SUCCEEDED,
  FAILED_SAFE,
  EXHAUSTED,
  CANCELLED,
  REFUSED;

  /**
   * Parses a wire value or, leniently, the constant name (JSON reads go through here).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static ExecutionOutcome fromWireValue(String value) {
    return WireValues.parseLenient(ExecutionOutcome.class, value);
  }
}
