package io.zeocore.connections.admission;

import org.jspecify.annotations.Nullable;

/**
 * Rule 9 of revision admission: a path template is a constrained absolute path. It starts with {@code /}, not
 * {@code //}, and contains none of {@code ://}, {@code *}, {@code ..}, {@code ?}, {@code #}, a backslash, whitespace or
 * a control character, also after percent-decoding (repeatedly, so {@code %252e%252e} is caught); a malformed percent
 * escape is refused as well.
 */
final class PathTemplates {

  private static final int MAX_DECODING_ROUNDS = 4;

  private PathTemplates() {}

  static boolean isConstrained(String template) {
    if (!template.startsWith("/") || template.startsWith("//")) {
      return false;
    }
    String current = template;
    for (int round = 0; round <= MAX_DECODING_ROUNDS; round++) {
      if (hasForbiddenContent(current)) {
        return false;
      }
      if (current.indexOf('%') < 0) {
        return true;
      }
      String decoded = percentDecode(current);
      if (decoded == null) {
        return false;
      }
      if (decoded.startsWith("//")) {
        return false;
      }
      current = decoded;
    }
    return false; // still percent-encoded after several rounds: not a constrained path
  }

  private static boolean hasForbiddenContent(String path) {
    if (path.contains("://") || path.contains("..") || path.indexOf('*') >= 0 || path.indexOf('?') >= 0
        || path.indexOf('#') >= 0 || path.indexOf('\\') >= 0) {
      return true;
    }
    for (int i = 0; i < path.length(); ) {
      int codePoint = path.codePointAt(i);
      if (Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || Character.isISOControl(codePoint)) {
        return true;
      }
      i += Character.charCount(codePoint);
    }
    return false;
  }

  /** Decodes {@code %XX} escapes byte-wise (non-ASCII bytes become U+FFFD); {@code null} for a malformed escape. */
  private static @Nullable String percentDecode(String path) {
    StringBuilder out = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (i + 2 >= path.length()) {
        return null;
      }
      int high = Character.digit(path.charAt(i + 1), 16);
      int low = Character.digit(path.charAt(i + 2), 16);
      if (high < 0 || low < 0) {
        return null;
      }
      int value = high << 4 | low;
      out.append(value < 0x80 ? (char) value : '\uFFFD');
      i += 2;
    }
    return out.toString();
  }
}
