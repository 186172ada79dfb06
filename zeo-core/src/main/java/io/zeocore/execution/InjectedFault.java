package io.zeocore.execution;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A failure that fault injection made up, never a provider's: the target was not called. The runner records it with
 * its kind, {@code dispatchStarted=false} and {@link MachineCodes#FAULT_INJECTED} (never the kind's own code), and does
 * not count it towards {@link TargetHealth} cooldowns, so an injected fault cannot be mistaken for a real one in
 * records, results, events or meters.
 */
public final class InjectedFault extends AttemptError {

  private static final long serialVersionUID = 1L;

  /**
   * @param kind the kind to inject ({@code cancelled} is the host's and cannot be injected)
   * @param retryAfter a Retry-After to inject with a {@code rate_limit}, or {@code null}
   */
  public InjectedFault(FailureKind kind, @Nullable Duration retryAfter) {
    super(refuseCancelled(kind), false, retryAfter);
  }

  private static FailureKind refuseCancelled(FailureKind kind) {
    if (kind == FailureKind.CANCELLED) {
      throw new IllegalArgumentException("cancelled is the host's and cannot be injected");
    }
    return kind;
  }
}
