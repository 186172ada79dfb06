package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;

/**
 * Says truthfully what kind of target produced a value. {@link #NONE} appears only on results that carry no value; a
 * target is always {@link #LIVE} or {@link #SIMULATED}.
 */
public enum ExecutionMode implements WireValue.Lowercase {
  LIVE,
  SIMULATED,
  NONE;

  /**
   * Parses a wire value or, leniently, the constant name (JSON reads go through here).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static ExecutionMode fromWireValue(String value) {
    return WireValues.parseLenient(ExecutionMode.class, value);
  }
}
