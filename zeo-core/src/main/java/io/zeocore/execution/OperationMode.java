package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The safety class of an {@link ExecutionPolicy}. Only {@link #READ_ONLY} and {@link #ADVISORY} work may run in the
 * {@link ResilientRunner}; {@link #EFFECTFUL} policies are refused before any call with
 * {@link MachineCodes#EFFECTFUL_REQUIRES_PERSISTENCE}, because retrying an effect after an uncertain outcome needs
 * durable state, idempotency evidence and reconciliation (see {@code io.zeocore.connections.effect.EffectOrchestrator}).
 */
public enum OperationMode {
  READ_ONLY("read_only"),
  ADVISORY("advisory"),
  EFFECTFUL("effectful");

  private final String wireValue;

  OperationMode(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The reference's lowercase wire value, e.g. {@code read_only}. */
  @JsonValue
  public String wireValue() {
    return wireValue;
  }

  /**
   * Parses a wire value ({@code read_only}) or, leniently, the constant name in any case and with {@code -} for
   * {@code _} ({@code READ_ONLY}, {@code read-only}).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static OperationMode fromWireValue(String value) {
    return WireValues.parse(OperationMode.class, value, OperationMode::wireValue);
  }
}
