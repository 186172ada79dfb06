package io.zeocore.llm;

import java.net.http.HttpHeaders;
import java.time.InstantSource;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/** Parses a response's requested retry delay. */
final class RetryAfter {

  /** Larger values are clamped: any of them outlasts every sane budget, and this one still fits in nanoseconds. */
  static final Duration MAX = Duration.ofSeconds(Integer.MAX_VALUE);

  private static final Pattern MILLIS = Pattern.compile("[0-9]{1,15}(\\.[0-9]{1,9})?");

  private RetryAfter() {}

  /**
   * OpenAI's {@code retry-after-ms} (milliseconds, possibly fractional) when present and valid, otherwise
   * {@code Retry-After} as delay-seconds or an HTTP date (RFC 1123) relative to {@code clock}; a date in the past is
   * zero. Returns {@code null} when neither header is present or parses.
   */
  static Duration parse(HttpHeaders headers, InstantSource clock) {
    Optional<String> millis = headers.firstValue("retry-after-ms");
    if (millis.isPresent()) {
      Duration parsed = parseMillis(millis.get().trim());
      if (parsed != null) {
        return parsed;
      }
    }
    return headers.firstValue("retry-after").map(value -> parseRetryAfter(value.trim(), clock)).orElse(null);
  }

  static Duration parseRetryAfter(String value, InstantSource clock) {
    if (value.isEmpty()) {
      return null;
    }
    if (isDigits(value)) {
      // a very long digit string overflows long: it is then certainly beyond MAX
      if (value.length() > 10) {
        return MAX;
      }
      return clamp(Duration.ofSeconds(Long.parseLong(value)));
    }
    try {
      Instant date = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration delay = Duration.between(clock.instant(), date);
      return delay.isNegative() ? Duration.ZERO : clamp(delay);
    } catch (DateTimeParseException notADate) {
      return null;
    }
  }

  private static Duration parseMillis(String value) {
    if (!MILLIS.matcher(value).matches()) {
      return null;
    }
    double nanos = Double.parseDouble(value) * 1_000_000d;
    return nanos >= MAX.toNanos() ? MAX : Duration.ofNanos((long) nanos);
  }

  private static Duration clamp(Duration delay) {
    return delay.compareTo(MAX) > 0 ? MAX : delay;
  }

  private static boolean isDigits(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
