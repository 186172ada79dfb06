package io.zeocore.execution;

import java.util.regex.Pattern;

/** The target-id rule: 1–128 characters, an ASCII letter or digit first, then letters, digits, {@code _.:/-}. */
final class TargetIds {

  static final Pattern PATTERN = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.:/-]{0,127}");

  private TargetIds() {}

  /** Same rule as {@link #PATTERN}, without a regex engine: this runs for every attempt context and record. */
  static boolean isValid(String targetId) {
    if (targetId == null || targetId.isEmpty() || targetId.length() > 128) {
      return false;
    }
    for (int i = 0; i < targetId.length(); i++) {
      char c = targetId.charAt(i);
      boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!letterOrDigit && (i == 0 || (c != '_' && c != '.' && c != ':' && c != '/' && c != '-'))) {
        return false;
      }
    }
    return true;
  }

  static String require(String targetId) {
    if (!isValid(targetId)) {
      throw new IllegalArgumentException("target id must match " + PATTERN.pattern() + " (1-128 characters)");
    }
    return targetId;
  }
}
