package io.zeocore.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class SaturatingDurationsTest {

  @Test
  void ordinaryDurationsAreExact() {
    assertThat(SaturatingDurations.toNanos(Duration.ofMillis(1500))).isEqualTo(1_500_000_000L);
    assertThat(SaturatingDurations.toNanos(Duration.ofNanos(-7))).isEqualTo(-7);
  }

  @Test
  void hugeDurationsSaturateSoThatDeadlineArithmeticNeverOverflows() {
    long huge = SaturatingDurations.toNanos(Duration.ofSeconds(Long.MAX_VALUE));
    assertThat(huge).isEqualTo(SaturatingDurations.MAX_NANOS);
    assertThat(SaturatingDurations.toNanos(Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(-SaturatingDurations.MAX_NANOS);
    for (long now : new long[] {Long.MIN_VALUE / 2, -1, 0, System.nanoTime(), Long.MAX_VALUE / 2}) {
      long deadline = SaturatingDurations.deadline(now, ChronoTestValues.FOREVER);
      assertThat(deadline - now).isEqualTo(SaturatingDurations.MAX_NANOS);
      assertThat(deadline - now).isPositive();
    }
  }

  @Test
  void negativeNanosBecomeZeroDurations() {
    assertThat(SaturatingDurations.ofNanosAtLeastZero(-5)).isZero();
    assertThat(SaturatingDurations.ofNanosAtLeastZero(5)).isEqualTo(Duration.ofNanos(5));
  }

  @Test
  void retryAfterReadsSecondsAndDatesOnTheGivenClock() {
    InstantSource clock = InstantSource.fixed(Instant.parse("2015-10-21T07:26:00Z"));
    assertThat(RetryAfterHeader.parse(" 7 ", clock)).isEqualTo(Duration.ofSeconds(7));
    assertThat(RetryAfterHeader.parse("Wed, 21 Oct 2015 07:28:00 GMT", clock)).isEqualTo(Duration.ofMinutes(2));
    assertThat(RetryAfterHeader.parse("Wed, 21 Oct 2015 07:00:00 GMT", clock)).isZero();
    assertThat(RetryAfterHeader.parse("99999999999999999999", clock)).isEqualTo(RetryAfterHeader.MAX);
    assertThat(RetryAfterHeader.parse("soon", clock)).isNull();
    assertThat(RetryAfterHeader.parse("", clock)).isNull();
    assertThat(RetryAfterHeader.parse(null, clock)).isNull();
  }

  @Test
  void retryAfterMillisAsksFirstAndFallsBackToRetryAfterWhenItDoesNotParse() {
    InstantSource clock = InstantSource.fixed(Instant.parse("2015-10-21T07:26:00Z"));
    assertThat(RetryAfterHeader.parse("7", " 1500.5 ", clock)).isEqualTo(Duration.ofNanos(1_500_500_000L));
    assertThat(RetryAfterHeader.parse("7", "soon", clock)).isEqualTo(Duration.ofSeconds(7));
    assertThat(RetryAfterHeader.parse("7", null, clock)).isEqualTo(Duration.ofSeconds(7));
    assertThat(RetryAfterHeader.parse(null, "999999999999999", clock)).isEqualTo(RetryAfterHeader.MAX);
    assertThat(RetryAfterHeader.parse(null, "-5", clock)).isNull();
    assertThat(RetryAfterHeader.parse(null, null, clock)).isNull();
  }

  private static final class ChronoTestValues {
    static final Duration FOREVER = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
  }
}
