package io.zeocore.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The delay a failed HTTP response asks for: its {@code Retry-After} header (RFC 9110 §10.2.3) and OpenAI's
 * {@code retry-after-ms}, for every client and classifier of ZeoCore.
 */
public final class RetryAfterHeader {

  /** Larger delays are clamped: any of them outlasts every sane budget, and this one still fits in nanoseconds. */
  public static final Duration MAX = Duration.ofSeconds(Integer.MAX_VALUE);

  private static final Pattern MILLIS = Pattern.compile("[0-9]{1,15}(\\.[0-9]{1,9})?");

  private RetryAfterHeader() {}

  /**
   * OpenAI's {@code retry-after-ms} (milliseconds, possibly fractional) when present and valid, otherwise
   * {@code retryAfter} as {@link #parse(String, InstantSource)} reads it.
   *
   * @return the delay, or {@code null} when neither value is present and valid
   */
  public static @Nullable Duration parse(@Nullable String retryAfter, @Nullable String retryAfterMillis,
      InstantSource clock) {
    if (retryAfterMillis != null && MILLIS.matcher(retryAfterMillis.trim()).matches()) {
      double nanos = Double.parseDouble(retryAfterMillis.trim()) * 1_000_000d;
      return nanos >= MAX.toNanos() ? MAX : Duration.ofNanos((long) nanos);
    }
    return parse(retryAfter, clock);
  }

  /**
   * The delay a {@code Retry-After} value asks for: delay-seconds, or an HTTP date (RFC 1123) measured on
   * {@code clock}, a date in the past being zero; clamped to {@link #MAX}.
   *
   * @return the delay, or {@code null} when the value is absent, blank or neither form
   */
  public static @Nullable Duration parse(@Nullable String value, InstantSource clock) {
    if (value == null) {
      return null;
    }
    String trimmed = value.trim();
    if (trimmed.isEmpty()) {
      return null;
    }
    if (trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
      // a very long digit string overflows long: it is then certainly beyond MAX
      return trimmed.length() > 10 ? MAX : clamp(Duration.ofSeconds(Long.parseLong(trimmed)));
    }
    try {
      Instant date = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration delay = Duration.between(clock.instant(), date);
      return delay.isNegative() ? Duration.ZERO : clamp(delay);
    } catch (DateTimeParseException notADate) {
      return null;
    }
  }

  /** {@code delay}, at most {@link #MAX}. */
  public static Duration clamp(Duration delay) {
    return delay.compareTo(MAX) > 0 ? MAX : delay;
  }
}
