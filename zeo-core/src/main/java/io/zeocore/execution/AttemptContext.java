package io.zeocore.execution;

import java.time.Duration;
import java.util.Objects;

/**
 * What the runner hands a target for one attempt. Built fresh for every attempt.
 *
 * @param attemptNumber 1-based position of this attempt in the policy's plan
 * @param targetId the planned target id
 * @param timeout the effective attempt timeout: {@code min(policy.attemptTimeout, remainingTotal)}, always positive.
 *     A synchronous target must apply it to its own I/O (the sync runner cannot stop in-process code); the async runner
 *     additionally cancels the attempt's future when it expires.
 * @param remainingTotal what was left of the total budget when this attempt was planned
 * @param cancellation the run's cancellation token; long-running targets should poll it
 */
public record AttemptContext(
    int attemptNumber, String targetId, Duration timeout, Duration remainingTotal, CancellationToken cancellation) {

  public AttemptContext {
    if (attemptNumber < 1) {
      throw new IllegalArgumentException("attemptNumber must be at least 1");
    }
    TargetIds.require(targetId);
    Durations.positive(timeout, "timeout");
    Durations.positive(remainingTotal, "remainingTotal");
    Objects.requireNonNull(cancellation, "cancellation");
  }
}
