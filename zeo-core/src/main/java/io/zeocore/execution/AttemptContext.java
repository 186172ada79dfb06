package io.zeocore.execution;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the runner hands a target for one attempt. Built fresh for every attempt; its values never change, and it
 * takes one report back: what the attempt's model request used ({@link #reportUsage}), which the runner puts in the
 * attempt's {@link AttemptRecord}.
 */
public final class AttemptContext {

  private final int attemptNumber;
  private final String targetId;
  private final Duration timeout;
  private final Duration remainingTotal;
  private final CancellationToken cancellation;
  private volatile @Nullable ModelUsage usage;

  /**
   * @param attemptNumber 1-based position of this attempt in the policy's plan
   * @param targetId the planned target id
   * @param timeout the effective attempt timeout: {@code min(policy.attemptTimeout, remainingTotal)}, always
   *     positive. A synchronous target must apply it to its own I/O (the sync runner cannot stop in-process code);
   *     the async runner additionally cancels the attempt's future when it expires.
   * @param remainingTotal what was left of the total budget when this attempt was planned
   * @param cancellation the run's cancellation token; long-running targets should poll it
   */
  public AttemptContext(int attemptNumber, String targetId, Duration timeout, Duration remainingTotal,
      CancellationToken cancellation) {
    if (attemptNumber < 1) {
      throw new IllegalArgumentException("attemptNumber must be at least 1");
    }
    TargetIds.require(targetId);
    Durations.positive(timeout, "timeout");
    Durations.positive(remainingTotal, "remainingTotal");
    this.attemptNumber = attemptNumber;
    this.targetId = targetId;
    this.timeout = timeout;
    this.remainingTotal = remainingTotal;
    this.cancellation = Objects.requireNonNull(cancellation, "cancellation");
  }

  /** The 1-based position of this attempt in the policy's plan. */
  public int attemptNumber() {
    return attemptNumber;
  }

  /** The planned target id. */
  public String targetId() {
    return targetId;
  }

  /** The effective attempt timeout: {@code min(policy.attemptTimeout, remainingTotal)}, always positive. */
  public Duration timeout() {
    return timeout;
  }

  /** What was left of the total budget when this attempt was planned. */
  public Duration remainingTotal() {
    return remainingTotal;
  }

  /** The run's cancellation token; long-running targets should poll it. */
  public CancellationToken cancellation() {
    return cancellation;
  }

  /**
   * Reports what this attempt's model request used (tokens, models), as the provider said: the runner records it in
   * the attempt's {@link AttemptRecord#usage()}, counts its tokens against the policy's token budget and hands it to
   * the listeners (meters, observations). A later report replaces an earlier one. Report only what the provider
   * said; never prompt or answer text.
   */
  public void reportUsage(ModelUsage usage) {
    this.usage = Objects.requireNonNull(usage, "usage");
  }

  /** What {@link #reportUsage} reported, or {@code null}. */
  @Nullable ModelUsage usage() {
    return usage;
  }

  @Override
  public String toString() {
    return "AttemptContext[attemptNumber=" + attemptNumber + ", targetId=" + targetId + ", timeout=" + timeout
        + ", remainingTotal=" + remainingTotal + "]";
  }
}
