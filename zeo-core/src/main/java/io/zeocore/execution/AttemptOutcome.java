package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;

/** Outcome of one planned position of a run: an attempt that succeeded or failed, or a target that was not called. */
public enum AttemptOutcome implements WireValue.Lowercase {
  SUCCEEDED,
  FAILED,
  /**
   * The target was cooling down ({@link TargetHealth}) and was not called: {@link MachineCodes#TARGET_COOLING}, the
   * cooldown's cause as the failure kind, {@code dispatchStarted=false}, a zero timeout and duration.
   */
  SKIPPED;

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
