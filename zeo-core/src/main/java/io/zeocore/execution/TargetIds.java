package io.zeocore.execution;

import java.util.regex.Pattern;

/** The target-id rule: 1–128 characters, an ASCII letter or digit first, then letters, digits, {@code _.:/-}. */
final class TargetIds {

  static final Pattern PATTERN = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.:/-]{0,127}");

  private TargetIds() {}

  static boolean isValid(String targetId) {
    return targetId != null && PATTERN.matcher(targetId).matches();
  }

  static String require(String targetId) {
    if (!isValid(targetId)) {
      throw new IllegalArgumentException("target id must match " + PATTERN.pattern() + " (1-128 characters)");
    }
    return targetId;
  }
}
