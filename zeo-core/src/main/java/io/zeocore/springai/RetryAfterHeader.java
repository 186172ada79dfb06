package io.zeocore.springai;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Parses a failed response's requested delay, exactly as ZeoCore's own LLM clients do. */
final class RetryAfterHeader {

  /** Larger values are clamped: any of them outlasts every sane budget, and this one still fits in nanoseconds. */
  static final Duration MAX = Duration.ofSeconds(Integer.MAX_VALUE);

  private static final Pattern MILLIS = Pattern.compile("[0-9]{1,15}(\\.[0-9]{1,9})?");
  private static final Pattern SECONDS = Pattern.compile("[0-9]+");

  private RetryAfterHeader() {}

  /**
   * OpenAI's {@code retry-after-ms} when present and valid, otherwise {@code Retry-After} as delay-seconds or an HTTP
   * date (a date in the past is zero); {@code null} when neither parses.
   */
  static @Nullable Duration parse(String retryAfter, String retryAfterMillis, InstantSource clock) {
    if (retryAfterMillis != null && MILLIS.matcher(retryAfterMillis.trim()).matches()) {
      double nanos = Double.parseDouble(retryAfterMillis.trim()) * 1_000_000d;
      return nanos >= MAX.toNanos() ? MAX : Duration.ofNanos((long) nanos);
    }
    if (retryAfter == null || retryAfter.isBlank()) {
      return null;
    }
    String value = retryAfter.trim();
    if (SECONDS.matcher(value).matches()) {
      return value.length() > 10 ? MAX : clamp(Duration.ofSeconds(Long.parseLong(value)));
    }
    try {
      Instant date = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration delay = Duration.between(clock.instant(), date);
      return delay.isNegative() ? Duration.ZERO : clamp(delay);
    } catch (DateTimeParseException notADate) {
      return null;
    }
  }

  private static Duration clamp(Duration delay) {
    return delay.compareTo(MAX) > 0 ? MAX : delay;
  }
}
