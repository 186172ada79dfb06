package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

/**
 * The lifecycle status of a {@link Connection}; only {@link #ACTIVE} connections may execute. A {@link #REVOKED}
 * connection carries {@code revoked_at}.
 */
public enum ConnectionStatus {
  PENDING,
  ACTIVE,
  REPAIR_REQUIRED,
  REVOKED;

  /**
   * The wire value: exactly the constant's name (e.g. {@code PENDING}).
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
  public static ConnectionStatus fromWireValue(String value) {
    return ContractRules.wireConstant(ConnectionStatus.class, value);
  }
}
