package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

/**
 * The durable state of an {@link ReadRecord}. Reads have no {@code AMBIGUOUS}: a read that did not
 * complete safely is {@link #FAILED_SAFE}.
 */
public enum ReadState {
  CLAIMED,
  CONFIRMED,
  FAILED_SAFE;

  /**
   * The wire value: exactly the constant's name (e.g. {@code CLAIMED}).
   * Annotated so that every JSON mapper, not only {@link ContractJson}, writes it whatever its enum features
   * (lowercase, {@code toString}, index).
   */
  @JsonValue
  public String wireValue() {
    return name();
  }

  /**
   * The constant whose wire value is exactly {@code value} (case-sensitive, no trimming); what every JSON mapper reads.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ReadState fromWireValue(String value) {
    return ContractRules.wireConstant(ReadState.class, value);
  }
}
