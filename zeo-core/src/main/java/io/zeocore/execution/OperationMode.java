package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;

/**
 * The safety class of an {@link ExecutionPolicy}. Only {@link #READ_ONLY} and {@link #ADVISORY} work may run in the
 * {@link ResilientRunner}; {@link #EFFECTFUL} policies are refused before any call with
 * {@link MachineCodes#EFFECTFUL_REQUIRES_PERSISTENCE}, because retrying an effect after an uncertain outcome needs
 * durable state, idempotency evidence and reconciliation (see {@code io.zeocore.connections.effect.EffectOrchestrator}).
 */
public enum OperationMode implements WireValue.Lowercase {
  READ_ONLY,
  ADVISORY,
  EFFECTFUL;

  /**
   * Parses a wire value ({@code read_only}) or, leniently, the constant name in any case and with {@code -} for
   * {@code _} ({@code READ_ONLY}, {@code read-only}).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static OperationMode fromWireValue(String value) {
    return WireValues.parseLenient(OperationMode.class, value);
  }
}
