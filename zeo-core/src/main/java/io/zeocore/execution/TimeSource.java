package io.zeocore.execution;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

/**
 * All the time a {@link ResilientRunner} and a {@link TargetHealth} use, from one source: the monotonic clock of every
 * timing, budget, deadline and cooldown; the sleep of a sync run's backoff; and the scheduler of async attempt
 * timeouts, async and streamed backoff, and stream timers. {@link #system()} is real time. A test replaces it as a
 * whole ({@link ResilientRunner.Builder#timeSource}, {@link TargetHealth.Builder#clock}) with a manual source, such as
 * the test kit's {@code VirtualTime}, under which a run with ten seconds of backoff and a thirty-second deadline
 * completes at once with the same records and outcome as in real time.
 *
 * <p>What stays real time under any source: a sync attempt of a {@link DeadlineMode#ENFORCED} policy waits for its
 * worker thread in real time, and a target's own I/O takes what it takes.
 */
public interface TimeSource extends MonotonicClock, Sleeper {

  /** The scheduler of async timers and backoff; delays handed to it are durations on this source's clock. */
  ScheduledExecutorService scheduler();

  /** {@link System#nanoTime()}, {@link Thread#sleep} and the runner's shared scheduler thread. */
  static TimeSource system() {
    return SystemTime.INSTANCE;
  }

  /** Real time. */
  final class SystemTime implements TimeSource {

    static final SystemTime INSTANCE = new SystemTime();
    private static final Sleeper SLEEPER = Sleeper.system();

    private SystemTime() {}

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      SLEEPER.sleep(duration);
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return ResilientRunner.SharedScheduler.INSTANCE;
    }

    @Override
    public String toString() {
      return "TimeSource.system()";
    }
  }
}
