package io.zeocore.llm;

import io.zeocore.internal.RetryAfterHeader;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.InstantSource;
import org.jspecify.annotations.Nullable;

/** Parses a response's requested retry delay. */
final class RetryAfter {

  /** Larger values are clamped: any of them outlasts every sane budget, and this one still fits in nanoseconds. */
  static final Duration MAX = RetryAfterHeader.MAX;

  private RetryAfter() {}

  /**
   * OpenAI's {@code retry-after-ms} (milliseconds, possibly fractional) when present and valid, otherwise
   * {@code Retry-After} as delay-seconds or an HTTP date (RFC 1123) relative to {@code clock}; a date in the past is
   * zero. Returns {@code null} when neither header is present or parses.
   */
  static @Nullable Duration parse(HttpHeaders headers, InstantSource clock) {
    return RetryAfterHeader.parse(headers.firstValue("retry-after").orElse(null),
        headers.firstValue("retry-after-ms").orElse(null), clock);
  }
}
