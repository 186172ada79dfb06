package io.zeocore;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.internal.WireValues;

/**
 * What a capability or business operation does to the outside world, with the reference's lowercase wire values.
 * Only {@link #READ} is non-effectful; every other kind requires durable effect orchestration.
 *
 * <p>JSON: the kind itself carries its wire value ({@link JsonValue} on {@link #wireValue()}, {@link JsonCreator} on
 * {@link #fromWireValue}), so every mapper, Spring's and a plain {@code JsonMapper} included, writes and reads
 * {@code "external_communication"}, never the constant name.
 */
public enum EffectKind implements WireValue.Lowercase {
  READ,
  WRITE,
  DELETE,
  EXTERNAL_COMMUNICATION,
  FINANCIAL,
  SECURITY_SENSITIVE;

  /** Whether this kind changes something outside the process: everything except {@link #READ}. */
  public boolean isEffectful() {
    return this != READ;
  }

  /**
   * The kind whose wire value is exactly {@code value} (the lowercase name; contracts are strict: no other spelling).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static EffectKind fromWireValue(String value) {
    return WireValues.parseExact(EffectKind.class, value);
  }
}
