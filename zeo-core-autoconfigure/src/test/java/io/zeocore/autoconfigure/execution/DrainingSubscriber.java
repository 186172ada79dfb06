package io.zeocore.autoconfigure.execution;

import java.util.concurrent.Flow;

/** A subscriber of a streamed run that asks for every chunk and keeps none: the tests read the run's result instead. */
public final class DrainingSubscriber<T> implements Flow.Subscriber<T> {

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(T item) {}

  @Override
  public void onError(Throwable throwable) {}

  @Override
  public void onComplete() {}
}
