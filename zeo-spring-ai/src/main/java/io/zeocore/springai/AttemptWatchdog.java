package io.zeocore.springai;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Applies an attempt's timeout to a blocking model call that has no per-request timeout of its own (Spring AI's
 * {@code RestClient}-based models such as Ollama): when the timeout expires while the call is still running, the
 * calling thread is interrupted, which aborts the JDK {@code HttpClient} exchange underneath. The interrupt is
 * delivered only while the call runs and is cleared again before the attempt ends, so it never leaks to the runner.
 */
final class AttemptWatchdog {

  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private static final int RUNNING = 0;
  private static final int FIRED = 1;
  private static final int DONE = 2;

  private final Thread caller;
  private final ScheduledFuture<?> alarm;
  private int state = RUNNING;

  private AttemptWatchdog(Duration timeout) {
    this.caller = Thread.currentThread();
    this.alarm = TIMER.schedule(this::fire, Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS);
  }

  /** Starts watching the calling thread. */
  static AttemptWatchdog start(Duration timeout) {
    return new AttemptWatchdog(timeout);
  }

  private synchronized void fire() {
    if (state == RUNNING) {
      state = FIRED;
      caller.interrupt();
    }
  }

  /**
   * Stops watching; call on the watched thread when the model call returns or throws. Returns whether the timeout
   * fired, in which case this thread's interrupt flag, set by the watchdog, has been cleared.
   */
  boolean stop() {
    alarm.cancel(false);
    synchronized (this) {
      if (state == RUNNING) {
        state = DONE;
        return false;
      }
    }
    Thread.interrupted();
    return true;
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "zeocore-spring-ai-timeouts");
      thread.setDaemon(true);
      return thread;
    });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
