package io.zeocore.execution;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Supplies the random number {@code u} of a jittered backoff. The runner clamps {@code u} to {@code [0, 1]} and
 * multiplies the configured delay by {@code 1 + jitterFraction * (2u - 1)}. It is called exactly once per scheduled
 * delay, and never when the policy's jitter fraction is zero.
 */
@FunctionalInterface
public interface JitterSource {

  double next();

  /** Uniform in {@code [0, 1)} from {@link ThreadLocalRandom}. */
  static JitterSource random() {
    return () -> ThreadLocalRandom.current().nextDouble();
  }
}
