package io.zeocore.autoconfigure.http;

import java.net.http.HttpTimeoutException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/** The timer thread the attempt deadlines of HTTP exchanges share, and the exception they end with. */
final class AttemptDeadlines {

  /** One daemon thread for the whole JVM; cancelled timers are removed at once. */
  static final ScheduledExecutorService TIMER = timer();

  private AttemptDeadlines() {}

  /** Names no URL, header or body: only that ZeoCore's attempt timeout ended the exchange. */
  static HttpTimeoutException expired(String when) {
    return new HttpTimeoutException("ZeoCore attempt timeout expired " + when);
  }

  private static ScheduledExecutorService timer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "zeocore-http-attempt-deadline");
      thread.setDaemon(true);
      return thread;
    });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
