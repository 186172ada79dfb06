package io.zeocore.connections.admission;

import java.util.Locale;
import java.util.Set;

/**
 * Caller-controlled transport field names. A name matches after stripping surrounding whitespace, lowercasing and
 * reading {@code -} as {@code _}, so {@code Authorization}, {@code CALLBACK-URL} and {@code " url"} all match (the
 * reference compared exactly and let {@code Authorization} through).
 */
final class TransportFields {

  /** The reference's list: exact lowercase names. */
  static final Set<String> NAMES = Set.of("auth_header", "authorization", "callback", "callback_url", "cookie",
      "cookies", "headers", "origin", "path", "redirect", "redirect_url", "url");

  private TransportFields() {}

  static boolean isTransportField(String name) {
    return NAMES.contains(name.strip().toLowerCase(Locale.ROOT).replace('-', '_'));
  }
}
