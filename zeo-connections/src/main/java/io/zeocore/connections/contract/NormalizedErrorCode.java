package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

/**
 * The provider-neutral error taxonomy of receipts and results; the constant names are the wire values. It is a
 * separate vocabulary from {@link EffectState}: {@code FAILED_SAFE} here is an error code, never a state. {@link
 * #STOPPED} exists for hosted clients and is not produced by the orchestrator.
 */
public enum NormalizedErrorCode {
  CONNECTION_REVOKED,
  CONNECTION_REPAIR_REQUIRED,
  PROVIDER_SCOPE_MISSING,
  EXTERNAL_IDENTITY_CHANGED,
  BUSINESS_RESOURCE_UNAVAILABLE,
  RATE_LIMITED,
  PROVIDER_UNAVAILABLE,
  REQUEST_REFUSED,
  FAILED_SAFE,
  RESULT_AMBIGUOUS,
  CONNECTOR_REVISION_UNAVAILABLE,
  STOPPED;

  /**
   * The wire value: exactly the constant's name (e.g. {@code CONNECTION_REVOKED}).
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
  public static NormalizedErrorCode fromWireValue(String value) {
    return ContractRules.wireConstant(NormalizedErrorCode.class, value);
  }
}
