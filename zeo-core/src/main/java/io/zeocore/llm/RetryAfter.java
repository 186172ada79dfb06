package io.zeocore.llm;

import io.zeocore.internal.RetryAfterHeader;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Parses a response's requested retry delay. */
final class RetryAfter {

  /** Larger values are clamped: any of them outlasts every sane budget, and this one still fits in nanoseconds. */
  static final Duration MAX = RetryAfterHeader.MAX;

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

  static @Nullable Duration parseRetryAfter(String value, InstantSource clock) {
    return RetryAfterHeader.parse(value, clock);
  }

  private static @Nullable Duration parseMillis(String value) {
    if (!MILLIS.matcher(value).matches()) {
      return null;
    }
    double nanos = Double.parseDouble(value) * 1_000_000d;
    return nanos >= MAX.toNanos() ? MAX : Duration.ofNanos((long) nanos);
  }
}
