package io.zeocore.internal;

import io.zeocore.WireValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The wire values of {@link WireValue} enums: the lowercase names, computed once per enum, and their parsing. */
public final class WireValues {

  private static final ClassValue<String[]> LOWERCASE_NAMES = new ClassValue<>() {
    @Override
    protected String[] computeValue(Class<?> type) {
      return Arrays.stream(type.getEnumConstants()).map(constant -> ((Enum<?>) constant).name()
          .toLowerCase(Locale.ROOT)).toArray(String[]::new);
    }
  };

  private WireValues() {}

  /** {@code constant}'s name in lower case, without allocating. */
  public static String lowercase(Enum<?> constant) {
    return LOWERCASE_NAMES.get(constant.getDeclaringClass())[constant.ordinal()];
  }

  /**
   * The constant whose lowercase wire value is {@code value} trimmed, in lower case, with {@code -} read as {@code _}
   * (so the wire value, the YAML spelling and the constant's name all parse).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  public static <E extends Enum<E> & WireValue.Lowercase> E parseLenient(Class<E> type, String value) {
    if (value == null) {
      throw new IllegalArgumentException(type.getSimpleName() + " value must not be null");
    }
    String normalized = value.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (constant.wireValue().equals(normalized)) {
        return constant;
      }
    }
    throw unknown(type, value);
  }

  /**
   * The constant whose wire value is exactly {@code value} (case-sensitive, no trimming).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  public static <E extends Enum<E> & WireValue> E parseExact(Class<E> type, String value) {
    for (E constant : type.getEnumConstants()) {
      if (constant.wireValue().equals(value)) {
        return constant;
      }
    }
    throw unknown(type, value);
  }

  private static IllegalArgumentException unknown(Class<? extends Enum<?>> type, String value) {
    return new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + value + "'; expected one of "
        + Arrays.stream(type.getEnumConstants()).map(constant -> ((WireValue) constant).wireValue())
            .collect(Collectors.joining(", ")));
  }
}
