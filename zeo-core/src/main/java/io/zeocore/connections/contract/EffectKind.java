package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a capability or business operation does to the outside world, with the reference's lowercase wire values.
 * Only {@link #READ} is non-effectful; every other kind requires durable effect orchestration.
 *
 * <p>JSON: the kind itself carries its wire value ({@link JsonValue} on {@link #wireValue()}, {@link JsonCreator} on
 * {@link #fromWireValue}), so every mapper, Spring's and a plain {@code JsonMapper} included, writes and reads
 * {@code "external_communication"}, never the constant name.
 */
public enum EffectKind {
  READ("read"),
  WRITE("write"),
  DELETE("delete"),
  EXTERNAL_COMMUNICATION("external_communication"),
  FINANCIAL("financial"),
  SECURITY_SENSITIVE("security_sensitive");

  private final String wireValue;

  EffectKind(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The reference's lowercase wire value, e.g. {@code external_communication}. */
  @JsonValue
  public String wireValue() {
    return wireValue;
  }

  /** Whether this kind changes something outside the process: everything except {@link #READ}. */
  public boolean isEffectful() {
    return this != READ;
  }

  /**
   * The kind whose wire value is exactly {@code value}.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static EffectKind fromWireValue(String value) {
    for (EffectKind kind : values()) {
      if (kind.wireValue.equals(value)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown EffectKind '" + value + "'; expected one of "
        + Arrays.stream(values()).map(EffectKind::wireValue).collect(Collectors.joining(", ")));
  }
}
