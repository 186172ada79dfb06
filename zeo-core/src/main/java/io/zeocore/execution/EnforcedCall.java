package io.zeocore.execution;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One enforced call handed to a worker, with the state that tells a call that never started from one that was
 * abandoned while running: the worker moves it from {@code NEW} to {@code RUNNING} before calling the target (and
 * does not call it when the caller got there first), the caller from {@code NEW} to {@code NEVER_STARTED} or from
 * {@code RUNNING} to {@code ABANDONED} when it stops waiting. An abandoned call counts in its target's
 * {@link ResilientRunner.AbandonedCalls} until it returns.
 */
final class EnforcedCall<T> extends AtomicInteger implements Callable<T> {

  private static final long serialVersionUID = 1L;

  static final int NEW = 0;
  static final int RUNNING = 1;
  static final int RETURNED = 2;
  static final int NEVER_STARTED = 3;
  static final int ABANDONED = 4;

  private final transient Callable<T> body;
  private final transient ResilientRunner.AbandonedCalls abandoned;

  EnforcedCall(Callable<T> body, ResilientRunner.AbandonedCalls abandoned) {
    this.body = body;
    this.abandoned = abandoned;
  }

  @Override
  public T call() throws Exception {
    if (!compareAndSet(NEW, RUNNING)) {
      throw new CancellationException("the caller stopped waiting before the call started");
    }
    try {
      return body.call();
    } finally {
      if (!compareAndSet(RUNNING, RETURNED)) {
        abandoned.returned(); // abandoned while it ran: it no longer holds its target's worker
      }
    }
  }

  /** The caller stops waiting: {@link #NEVER_STARTED}, {@link #ABANDONED} or {@link #RETURNED}. */
  int abandon() {
    if (compareAndSet(NEW, NEVER_STARTED)) {
      return NEVER_STARTED;
    }
    if (compareAndSet(RUNNING, ABANDONED)) {
      abandoned.abandoned();
      return ABANDONED;
    }
    return get();
  }
}
