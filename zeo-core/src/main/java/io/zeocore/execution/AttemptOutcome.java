package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;

/** Outcome of one started attempt. */
public enum AttemptOutcome implements WireValue.Lowercase {
  SUCCEEDED,
  FAILED;

  /**
   * Parses a wire value or, leniently, the constant name (JSON reads go through here).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static AttemptOutcome fromWireValue(String value) {
    return WireValues.parseLenient(AttemptOutcome.class, value);
  }
}
