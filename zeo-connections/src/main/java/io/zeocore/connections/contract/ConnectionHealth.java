package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

/**
 * The last observed health of a {@link Connection}; informational, never checked by the orchestrator.
 */
public enum ConnectionHealth {
  UNKNOWN,
  HEALTHY,
  DEGRADED,
  UNREACHABLE;

  /**
   * The wire value: exactly the constant's name (e.g. {@code UNKNOWN}).
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
  public static ConnectionHealth fromWireValue(String value) {
    return ContractRules.wireConstant(ConnectionHealth.class, value);
  }
}
