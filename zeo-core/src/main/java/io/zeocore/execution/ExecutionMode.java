package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Says truthfully what kind of target produced a value. {@link #NONE} appears only on results that carry no value; a
 * target is always {@link #LIVE} or {@link #SIMULATED}.
 */
public enum ExecutionMode {
  LIVE("live"),
  SIMULATED("simulated"),
  NONE("none");

  private final String wireValue;

  ExecutionMode(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The reference's lowercase wire value. */
  @JsonValue
  public String wireValue() {
    return wireValue;
  }

  /**
   * Parses a wire value or, leniently, the constant name (JSON reads go through here).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static ExecutionMode fromWireValue(String value) {
    return WireValues.parse(ExecutionMode.class, value, ExecutionMode::wireValue);
  }
}
