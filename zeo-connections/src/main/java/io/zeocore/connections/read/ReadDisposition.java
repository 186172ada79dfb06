package io.zeocore.connections.read;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

/**
 * What an {@link ReadDispatcher} established about a read.
 */
public enum ReadDisposition {
  CONFIRMED,
  FAILED_SAFE;

  /**
   * The wire value: exactly the constant's name (e.g. {@code CONFIRMED}).
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
  public static ReadDisposition fromWireValue(String value) {
    return ContractRules.wireConstant(ReadDisposition.class, value);
  }
}
