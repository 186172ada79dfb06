package io.zeocore.connections.internal;

import io.zeocore.InvalidFieldException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The validation rules shared by the contract records. Every failure is an {@link IllegalArgumentException} whose
 * message names the field by its wire name (for example {@code organization_id}) and never echoes the rejected value.
 */
public final class ContractRules {

  /** A lowercase RFC 4122 version-4 UUID: version nibble {@code 4}, variant nibble one of {@code 8 9 a b}. */
  public static final String UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

  private static final Pattern HEX_64 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern SHA256_DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  private ContractRules() {}

  /**
   * The refusal of a JSON property that the contract {@code type} does not declare. Thrown by each contract record's
   * {@code @JsonAnySetter}, which Jackson consults for every undeclared property before (and regardless of) the
   * mapper's {@code FAIL_ON_UNKNOWN_PROPERTIES}: contracts are closed whatever mapper reads them, Spring Boot's
   * (which disables that feature) and a plain {@code JsonMapper} (Jackson 3 disables it by default) included.
   */
  public static UnrecognizedPropertyException unknownProperty(Class<?> type, String name) {
    return new UnrecognizedPropertyException(null, "Unrecognized property \"" + name + "\" of " + type.getSimpleName()
        + ": contract types are closed and refuse fields they do not declare", null, type, name, null);
  }

  /**
   * The constant of {@code type} whose name is exactly {@code value}: how every uppercase contract enum reads its wire
   * value. The message lists the accepted values and never repeats the rejected input.
   */
  public static <E extends Enum<E>> E wireConstant(Class<E> type, @Nullable String value) {
    if (value != null) {
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equals(value)) {
          return constant;
        }
      }
    }
    StringBuilder accepted = new StringBuilder();
    for (E constant : type.getEnumConstants()) {
      accepted.append(accepted.length() == 0 ? "" : ", ").append(constant.name());
    }
    throw new IllegalArgumentException(type.getSimpleName() + " must be one of " + accepted);
  }

  public static <T> T required(@Nullable T value, String field) {
    if (value == null) {
      throw new InvalidFieldException(field, "is required");
    }
    return value;
  }

  /** Length at least one and not whitespace only; surrounding whitespace is kept, never trimmed. */
  public static String text(@Nullable String value, String field) {
    String present = required(value, field);
    if (isBlank(present)) {
      throw new InvalidFieldException(field, "must not be empty or whitespace only");
    }
    return present;
  }

  /**
   * An identifier: {@link #text}, and free of the characters that make two identifiers look alike or hide content:
   * control characters (NUL included), format characters (bidirectional controls such as U+202E, zero-width
   * characters such as U+200B, U+200D, U+FEFF) and line or paragraph separators. The same on every store dialect.
   */
  public static String identifier(@Nullable String value, String field) {
    String present = text(value, field);
    for (int i = 0; i < present.length(); ) {
      int codePoint = present.codePointAt(i);
      int type = Character.getType(codePoint);
      if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
          || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE) {
        throw new InvalidFieldException(field,
            "must not contain control, bidirectional, zero-width or line-separator characters");
      }
      i += Character.charCount(codePoint);
    }
    return present;
  }

  /** {@code null} stays {@code null}; anything else must be {@link #text}. */
  public static @Nullable String optionalText(@Nullable String value, String field) {
    return value == null ? null : text(value, field);
  }

  /** {@code null} and blank strings become {@code null}. */
  public static @Nullable String blankToNull(@Nullable String value) {
    return value == null || isBlank(value) ? null : value;
  }

  public static boolean isBlank(String value) {
    for (int i = 0; i < value.length(); ) {
      int codePoint = value.codePointAt(i);
      if (!Character.isWhitespace(codePoint) && !Character.isSpaceChar(codePoint)) {
        return false;
      }
      i += Character.charCount(codePoint);
    }
    return true;
  }

  /** An immutable copy; {@code null} becomes the empty list; null elements are rejected. */
  public static <T> List<T> list(@Nullable List<T> values, String field) {
    if (values == null) {
      return List.of();
    }
    List<T> copy = new ArrayList<>(values.size());
    for (T value : values) {
      if (value == null) {
        throw new InvalidFieldException(field, "must not contain null");
      }
      copy.add(value);
    }
    return List.copyOf(copy);
  }

  /** Like {@link #list} and additionally every element must be {@link #text}. */
  public static List<String> textList(@Nullable List<String> values, String field) {
    List<String> copy = list(values, field);
    for (String value : copy) {
      if (isBlank(value)) {
        throw new InvalidFieldException(field, "must not contain empty or whitespace-only entries");
      }
    }
    return copy;
  }

  /** Contract instants have the store's precision: microseconds. Finer digits are truncated. */
  public static Instant instant(@Nullable Instant value, String field) {
    return required(value, field).truncatedTo(ChronoUnit.MICROS);
  }

  public static @Nullable Instant optionalInstant(@Nullable Instant value) {
    return value == null ? null : value.truncatedTo(ChronoUnit.MICROS);
  }

  /** Exactly 64 lowercase hexadecimal characters, no prefix. */
  public static String hex64(@Nullable String value, String field) {
    String present = required(value, field);
    if (!HEX_64.matcher(present).matches()) {
      throw new InvalidFieldException(field, "must be exactly 64 lowercase hexadecimal characters");
    }
    return present;
  }

  public static @Nullable String optionalHex64(@Nullable String value, String field) {
    return value == null ? null : hex64(value, field);
  }

  /** {@code sha256:} followed by exactly 64 lowercase hexadecimal characters. */
  public static String sha256Digest(@Nullable String value, String field) {
    String present = required(value, field);
    if (!SHA256_DIGEST.matcher(present).matches()) {
      throw new InvalidFieldException(field, "must be sha256: followed by 64 lowercase hexadecimal characters");
    }
    return present;
  }

  public static boolean isHex64(@Nullable String value) {
    return value != null && HEX_64.matcher(value).matches();
  }

  public static boolean isSha256Digest(@Nullable String value) {
    return value != null && SHA256_DIGEST.matcher(value).matches();
  }

  /** Refuses a normalized error's provider detail ({@code providerDetail} of the error, {@code null} when absent). */
  public static void forbidProviderDetail(@Nullable String providerDetail) {
    if (providerDetail != null) {
      throw new InvalidFieldException("provider_detail", "is forbidden at the orchestration boundary");
    }
  }
}
