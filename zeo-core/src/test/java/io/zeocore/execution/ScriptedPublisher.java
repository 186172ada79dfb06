package io.zeocore.execution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A publisher that plays a script as its subscriber asks: chunks only against demand, then a terminal signal or a
 * hang (nothing more, ever). Records what was requested, whether it was cancelled and how often it was subscribed.
 */
final class ScriptedPublisher implements Flow.Publisher<Object> {

  /** Completes the stream. */
  static final Object COMPLETE = new Object();
  /** Sends nothing more. */
  static final Object HANG = new Object();

  private final List<Object> script;
  final AtomicLong requested = new AtomicLong();
  final AtomicInteger subscriptions = new AtomicInteger();
  final CountDownLatch cancelled = new CountDownLatch(1);
  private int next;
  private long outstanding;
  private boolean emitting;
  private volatile Flow.Subscriber<? super Object> subscriber;

  private ScriptedPublisher(List<Object> script) {
    this.script = script;
  }

  /** Chunks (strings), then {@link #COMPLETE}, {@link #HANG} or a {@link Throwable}. */
  static ScriptedPublisher of(Object... steps) {
    return new ScriptedPublisher(new ArrayList<>(Arrays.asList(steps)));
  }

  boolean wasCancelled() {
    return cancelled.getCount() == 0;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super Object> s) {
    subscriptions.incrementAndGet();
    subscriber = s;
    s.onSubscribe(new Flow.Subscription() {
      @Override
      public void request(long n) {
        requested.addAndGet(n);
        play(n);
      }

      @Override
      public void cancel() {
        cancelled.countDown();
      }
    });
    play(0);
  }

  /** Emits {@code chunk} now, whatever the demand (for the tests of a publisher that ignores it). */
  void force(Object chunk) {
    subscriber.onNext(chunk);
  }

  private synchronized void play(long n) {
    outstanding += n;
    if (emitting) {
      return; // the loop below continues with the new demand
    }
    emitting = true;
    try {
      while (next < script.size() && !wasCancelled()) {
        Object step = script.get(next);
        if (step == HANG) {
          return;
        }
        if (step == COMPLETE) {
          next++;
          subscriber.onComplete();
          return;
        }
        if (step instanceof Throwable failure) {
          next++;
          subscriber.onError(failure);
          return;
        }
        if (outstanding == 0) {
          return;
        }
        outstanding--;
        next++;
        subscriber.onNext(step);
      }
    } finally {
      emitting = false;
    }
  }
}
