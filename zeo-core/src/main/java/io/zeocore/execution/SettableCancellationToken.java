package io.zeocore.execution;

/** A {@link CancellationToken} the host cancels explicitly. Thread-safe; cancellation cannot be undone. */
public final class SettableCancellationToken implements CancellationToken {

  private volatile boolean cancelled;

  /** Marks the token cancelled. Idempotent. */
  public void cancel() {
    cancelled = true;
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public String toString() {
    return "SettableCancellationToken[cancelled=" + cancelled + "]";
  }
}
