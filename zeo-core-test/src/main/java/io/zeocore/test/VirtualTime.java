package io.zeocore.test;

import io.zeocore.execution.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Time that passes only when a test says so: a {@link TimeSource} for {@link io.zeocore.execution.ResilientRunner}
 * ({@code ResilientRunner.builder().timeSource(time)}) and {@link io.zeocore.execution.TargetHealth}
 * ({@code TargetHealth.builder().clock(time)}), so that a plan with ten seconds of backoff and a thirty-second deadline
 * runs in milliseconds with the records and outcome it would have in real time.
 *
 * <ul>
 *   <li>{@link #nanoTime()} reads the virtual clock; it starts at an arbitrary origin and never goes back.</li>
 *   <li>{@link #sleep} (a sync run's backoff) moves the clock forward by the duration at once, running every task
 *       that falls due on the way.</li>
 *   <li>{@link #scheduler()} (async attempt timeouts, backoff, stream timers, a scripted answer's delay) queues each
 *       task at its virtual due time; tasks run on the thread that moves time ({@link #advance}, {@link #sleep},
 *       {@link #await}), in due-time order, never on a thread of their own.</li>
 *   <li>{@link #await(CompletableFuture)} drives an async run to its end: it runs what is due, then jumps to the next
 *       due task, until the future completes.</li>
 * </ul>
 * Thread-safe. Time does not move by itself: a test that waits for something virtual time never reaches fails after
 * a few real seconds with what was still queued, instead of hanging.
 */
public final class VirtualTime implements TimeSource {

  /** How long {@link #await} lets work outside virtual time (a target's own thread) run before it gives up. */
  private static final Duration REAL_TIME_LIMIT = Duration.ofSeconds(20);

  private final Object lock = new Object();
  private final PriorityQueue<Task<?>> queue = new PriorityQueue<>();
  private final AtomicLong sequence = new AtomicLong();
  private final Scheduler scheduler = new Scheduler();
  private long now;
  private final long origin;

  /** Virtual time starting at an arbitrary origin. */
  public VirtualTime() {
    this.origin = 1_000_000_000L;
    this.now = origin;
  }

  @Override
  public long nanoTime() {
    synchronized (lock) {
      return now;
    }
  }

  /** How much virtual time has passed since this source was made. */
  public Duration elapsed() {
    synchronized (lock) {
      return Duration.ofNanos(now - origin);
    }
  }

  /** Moves the clock forward by {@code duration} at once, running the tasks that fall due on the way. */
  @Override
  public void sleep(Duration duration) {
    advance(duration);
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /**
   * Moves the clock forward by {@code duration}, running each task that falls due, in due-time order, with the clock
   * at its due time.
   *
   * @throws IllegalArgumentException for a negative duration: virtual time never goes back
   */
  public void advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("virtual time never goes back: " + duration);
    }
    long until;
    synchronized (lock) {
      until = now + duration.toNanos();
    }
    runUntil(until);
    synchronized (lock) {
      now = Math.max(now, until);
    }
  }

  /** Runs the tasks that are due now, without moving the clock. */
  public void runDue() {
    runUntil(nanoTime());
  }

  /** How many scheduled tasks wait for their due time. */
  public int pendingTasks() {
    synchronized (lock) {
      return (int) queue.stream().filter(task -> !task.isDone()).count();
    }
  }

  /**
   * Drives {@code future} to its end: runs what is due, then jumps the clock to the next due task, until the future
   * completes; returns its value.
   *
   * @throws AssertionError when no virtual task is left and the future does not complete within a few real seconds
   *     (it waits on something virtual time does not control)
   */
  public <T> T await(CompletableFuture<T> future) {
    advanceUntil(future::isDone);
    try {
      return future.get();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while awaiting a virtual-time future", interrupted);
    } catch (ExecutionException failed) {
      throw new AssertionError("the awaited future failed: " + failed.getCause(), failed.getCause());
    }
  }

  /**
   * Runs due tasks and jumps the clock to the next one until {@code done} holds.
   *
   * @throws AssertionError as {@link #await}
   */
  public void advanceUntil(BooleanSupplier done) {
    long realDeadline = System.nanoTime() + REAL_TIME_LIMIT.toNanos();
    while (!done.getAsBoolean()) {
      runDue();
      if (done.getAsBoolean()) {
        return;
      }
      Long next = nextDue();
      if (next != null) {
        runUntil(next);
        synchronized (lock) {
          now = Math.max(now, next);
        }
        continue;
      }
      if (System.nanoTime() > realDeadline) {
        throw new AssertionError("virtual time has nothing left to run and the awaited work did not finish within "
            + REAL_TIME_LIMIT.toSeconds() + " s of real time (virtual time elapsed: " + elapsed() + ")");
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while advancing virtual time", interrupted);
      }
    }
  }

  private @Nullable Long nextDue() {
    synchronized (lock) {
      Task<?> head;
      while ((head = queue.peek()) != null && head.isDone()) {
        queue.poll();
      }
      return head == null ? null : head.due;
    }
  }

  /** Runs, one by one, every task due at or before {@code until}, each with the clock at its due time. */
  private void runUntil(long until) {
    while (true) {
      Task<?> task;
      synchronized (lock) {
        task = queue.peek();
        if (task == null || task.due > until) {
          return;
        }
        queue.poll();
        now = Math.max(now, task.due);
      }
      if (!task.isDone()) {
        task.run();
        if (task.period > 0 && !task.isCancelled()) {
          synchronized (lock) {
            task.due = now + task.period;
            queue.add(task);
          }
        }
      }
    }
  }

  @Override
  public String toString() {
    return "VirtualTime[elapsed=" + elapsed() + ", pending=" + pendingTasks() + "]";
  }

  /** A task at a virtual due time; equal due times run in submission order. */
  private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {

    private final long order = sequence.getAndIncrement();
    private final long period;
    long due;

    Task(Callable<V> work, long due, long period) {
      super(work);
      this.due = due;
      this.period = period;
    }

    @Override
    public void run() {
      if (period > 0) {
        super.runAndReset();
      } else {
        super.run();
      }
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      if (other instanceof Task<?> task) {
        int byDue = Long.compare(due, task.due);
        return byDue != 0 ? byDue : Long.compare(order, task.order);
      }
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }
  }

  /** The scheduler view: every task waits for virtual time; nothing runs on a thread of its own. */
  private final class Scheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private volatile boolean shutDown;

    private <V> Task<V> enqueue(Callable<V> work, long delayNanos, long periodNanos) {
      if (shutDown) {
        throw new RejectedExecutionException("virtual time's scheduler is shut down");
      }
      synchronized (lock) {
        Task<V> task = new Task<>(work, now + Math.max(0, delayNanos), periodNanos);
        queue.add(task);
        return task;
      }
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      return enqueue(callable(command), unit.toNanos(delay), 0);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
      return enqueue(callable, unit.toNanos(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
      return enqueue(callable(command), unit.toNanos(initialDelay), positive(unit.toNanos(period)));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
      return enqueue(callable(command), unit.toNanos(initialDelay), positive(unit.toNanos(delay)));
    }

    /** Runs {@code command} when virtual time next moves (or {@link #runDue()} is called): never on this thread. */
    @Override
    public void execute(Runnable command) {
      enqueue(callable(command), 0, 0);
    }

    private long positive(long period) {
      if (period <= 0) {
        throw new IllegalArgumentException("period must be positive");
      }
      return period;
    }

    private Callable<@Nullable Object> callable(Runnable command) {
      Objects.requireNonNull(command, "command");
      return () -> {
        command.run();
        return null;
      };
    }

    @Override
    public void shutdown() {
      shutDown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutDown = true;
      List<Runnable> pending = new ArrayList<>();
      synchronized (lock) {
        pending.addAll(queue);
        queue.clear();
      }
      return pending;
    }

    @Override
    public boolean isShutdown() {
      return shutDown;
    }

    @Override
    public boolean isTerminated() {
      return shutDown && pendingTasks() == 0;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return isTerminated();
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
      return enqueue(task, 0, 0);
    }
  }
}
