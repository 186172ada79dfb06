package io.zeocore;

import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.internal.WireValues;

/**
 * A constant with a wire value: the one spelling that JSON (any Jackson mapper: Jackson writes {@link #wireValue()}
 * through {@link JsonValue}), the actuator, events and the reference use for it. Each enum reads its wire value back
 * with its own static {@code fromWireValue}. (The contract's states and codes, whose wire value is exactly the constant's
 * name, declare their own {@code wireValue()}.)
 */
public interface WireValue {

  /** The wire value of this constant. */
  @JsonValue
  String wireValue();

  /**
   * The constant's name in lower case ({@code READ_ONLY} → {@code read_only}): the execution enums, effect kinds and
   * failure kinds. Their {@code fromWireValue} also accepts the YAML spelling ({@code read-only}) and the constant's
   * name.
   */
  interface Lowercase extends WireValue {

    /** The constant's name (implemented by every enum). */
    String name();

    @Override
    default String wireValue() {
      return WireValues.lowercase((Enum<?>) this);
    }
  }

}
