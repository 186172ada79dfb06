package io.zeocore.llm;

import org.jspecify.annotations.Nullable;

/**
 * An API key held as characters in a private array, never as a {@link String} field; its {@link #toString()} is
 * redacted, so a reflective or accidental dump of an owner prints {@code <redacted>}. A header value is built per
 * request and not kept. Not serializable.
 */
final class ApiKey {

  private final char[] value;

  private ApiKey(char[] value) {
    this.value = value;
  }

  /** A copy of {@code value}, or {@code null} when it is {@code null}, empty or only whitespace. */
  static @Nullable ApiKey of(char @Nullable [] value) {
    if (value == null) {
      return null;
    }
    boolean blank = true;
    for (char c : value) {
      if (!Character.isWhitespace(c)) {
        blank = false;
        break;
      }
    }
    return blank ? null : new ApiKey(value.clone());
  }

  static @Nullable ApiKey of(@Nullable String value) {
    return value == null ? null : of(value.toCharArray());
  }

  /** {@code Bearer <key>}, built for one request. */
  String bearer() {
    return new StringBuilder(7 + value.length).append("Bearer ").append(value).toString();
  }

  @Override
  public String toString() {
    return "<redacted>";
  }
}
