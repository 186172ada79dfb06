package io.zeocore.llm;

import io.zeocore.execution.Sleeper;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the legacy retrying {@link LlmClient#chat}: the reference's constructor values {@code retry_count},
 * {@code initial_retry_delay} and {@code max_retry_delay}, plus the sleep used between calls (injectable so that
 * tests do not wait). Never used by {@link LlmTargets}.
 *
 * @param retryCount how many retries follow the first call; at most {@code retryCount + 1} calls, at least 0
 * @param initialDelay the first delay, not negative; each later delay doubles
 * @param maxDelay the cap of a delay, not negative
 * @param sleeper how the loop waits (the runner's own {@link Sleeper} type)
 */
public record LegacyRetry(int retryCount, Duration initialDelay, Duration maxDelay, Sleeper sleeper) {

  private static final LegacyRetry DEFAULTS =
      new LegacyRetry(3, Duration.ofSeconds(1), Duration.ofSeconds(30), Sleeper.system());

  public LegacyRetry {
    if (retryCount < 0) {
      throw new IllegalArgumentException("retryCount cannot be negative");
    }
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (initialDelay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("retry delays cannot be negative");
    }
    Objects.requireNonNull(sleeper, "sleeper");
  }

  /** The reference's values: 3 retries, 1 s initial delay doubling to at most 30 s, real sleeps. */
  public static LegacyRetry defaults() {
    return DEFAULTS;
  }

  /** These settings with another sleeper. */
  public LegacyRetry withSleeper(Sleeper sleeper) {
    return new LegacyRetry(retryCount, initialDelay, maxDelay, sleeper);
  }
}
