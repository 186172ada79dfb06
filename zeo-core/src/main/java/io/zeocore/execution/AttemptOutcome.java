package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Outcome of one started attempt. */
public enum AttemptOutcome {
  SUCCEEDED("succeeded"),
  FAILED("failed");

  private final String wireValue;

  AttemptOutcome(String wireValue) {
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
  public static AttemptOutcome fromWireValue(String value) {
    return WireValues.parse(AttemptOutcome.class, value, AttemptOutcome::wireValue);
  }
}
