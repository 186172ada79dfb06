package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

/**
 * The declared risk class of a {@link ConnectorRevision}.
 */
public enum RiskClass {
  LOW,
  MODERATE,
  HIGH;

  /**
   * The wire value: exactly the constant's name (e.g. {@code LOW}).
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
  public static RiskClass fromWireValue(String value) {
    return ContractRules.wireConstant(RiskClass.class, value);
  }
}
