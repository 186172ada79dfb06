package io.zeocore.execution;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Lenient parsing of the enums' lowercase wire values. */
final class WireValues {

  private WireValues() {}

  static <E extends Enum<E>> E parse(Class<E> type, String value, Function<E, String> wireValue) {
    if (value == null) {
      throw new IllegalArgumentException(type.getSimpleName() + " value must not be null");
    }
    String normalized = value.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (wireValue.apply(constant).equals(normalized)) {
        return constant;
      }
    }
    throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + value + "'; expected one of "
        + Arrays.stream(type.getEnumConstants()).map(wireValue).collect(Collectors.joining(", ")));
  }
}
