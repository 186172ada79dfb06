package io.zeocore.autoconfigure.http;

import io.zeocore.execution.CurrentAttempt;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Bounds each {@code RestClient} (or {@code RestTemplate}) exchange made inside a ZeoCore attempt by what is left of
 * that attempt: {@code min(attempt-timeout, what is left of the run's total-timeout)}, measured from when the target's
 * call began ({@link CurrentAttempt}). An exchange made on a thread that is not calling an attempt's target passes
 * through untouched, with the client's own settings.
 *
 * <p>Inside an attempt:
 * <ul>
 *   <li>an exchange that would start with nothing left is not sent: it fails at once;</li>
 *   <li>while the request is sent and the response headers are awaited, the deadline interrupts the calling thread.
 *       Spring's {@code JdkClientHttpRequestFactory} (the JDK {@code HttpClient}) and
 *       {@code ReactorClientHttpRequestFactory} (Reactor Netty, which Boot prefers to the JDK client when it is on
 *       the class path) then cancel the exchange at once; the interrupt is cleared before the
 *       failure is thrown, so the runner does not mistake it for a cancellation of the run. A client whose blocking
 *       I/O ignores interrupts (Apache HttpComponents' classic client, {@code HttpURLConnection}) keeps waiting until
 *       its own timeouts end the call; the exchange then still fails as a timeout. (A host's own interrupt that
 *       lands in the same instant as the deadline's is cleared with it.)</li>
 *   <li>while the body is read, the deadline closes the response, which ends a read blocked on any of these
 *       clients.</li>
 * </ul>
 * Every such ending throws {@link java.net.http.HttpTimeoutException} (inside Spring's
 * {@code ResourceAccessException} or {@code RestClientException}), which ZeoCore classifies {@code TIMEOUT}, so the
 * policy's plan goes on to its next target without {@code deadline: enforced}. The exception's message names no URL,
 * header or body.
 *
 * <p>The timer is one shared daemon thread; an exchange holds one scheduled task until its response is closed
 * (Spring's {@code RestClient} closes it after reading the body). Thread-safe; one instance may serve every client.
 */
public final class AttemptTimeoutInterceptor implements ClientHttpRequestInterceptor {

  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    Optional<CurrentAttempt> attempt = CurrentAttempt.get();
    if (attempt.isEmpty()) {
      return execution.execute(request, body);
    }
    long left = attempt.get().deadlineNanos() - System.nanoTime();
    if (left <= 0) {
      throw AttemptDeadlines.expired("before the request was sent");
    }
    Exchange exchange = new Exchange(Thread.currentThread());
    exchange.timer = AttemptDeadlines.TIMER.schedule(exchange::expire, left, TimeUnit.NANOSECONDS);
    ClientHttpResponse response;
    try {
      response = execution.execute(request, body);
    } catch (IOException | RuntimeException failed) {
      boolean ours = !exchange.headersArrived();
      exchange.close();
      if (!ours) {
        throw failed;
      }
      Thread.interrupted(); // ours, set by expire(): the run was not cancelled
      IOException timeout = AttemptDeadlines.expired("while waiting for the response");
      timeout.initCause(failed);
      throw timeout;
    }
    if (!exchange.headersArrived(response)) {
      Thread.interrupted();
      exchange.close();
      abort(response);
      throw AttemptDeadlines.expired("while waiting for the response");
    }
    return new BoundedResponse(response, exchange);
  }

  /**
   * Ends {@code response} without reading what is left of its body (closing a response drains its body first, which
   * would wait for a stalled server): the body stream is closed, then the response.
   */
  static void abort(ClientHttpResponse response) {
    try {
      response.getBody().close();
    } catch (IOException | RuntimeException alreadyEnded) {
      // nothing left to abort
    }
    response.close();
  }

  /** One exchange's race between its deadline and its progress, decided under this object's lock. */
  private static final class Exchange {

    private static final int WAITING = 0;
    private static final int READING = 1;
    private static final int EXPIRED = 2;
    private static final int CLOSED = 3;

    private final Thread caller;
    private int state = WAITING;
    volatile @Nullable ScheduledFuture<?> timer;
    private @Nullable ClientHttpResponse response;

    Exchange(Thread caller) {
      this.caller = caller;
    }

    /** The timer: interrupts a caller still waiting for headers, closes a response being read. */
    void expire() {
      ClientHttpResponse reading = null;
      synchronized (this) {
        if (state == WAITING) {
          state = EXPIRED;
          caller.interrupt(); // under the lock: it can never land after the caller has moved on
          return;
        }
        if (state == READING) {
          state = EXPIRED;
          reading = response;
        }
      }
      if (reading != null) {
        abort(reading);
      }
    }

    /** The caller got a failure before any response: {@code false} when the deadline came first. */
    synchronized boolean headersArrived() {
      return headersArrived(null);
    }

    /** The caller got {@code received}: {@code false} when the deadline came first. */
    synchronized boolean headersArrived(@Nullable ClientHttpResponse received) {
      if (state == WAITING) {
        state = READING;
        response = received;
        return true;
      }
      return false;
    }

    synchronized boolean expired() {
      return state == EXPIRED;
    }

    void close() {
      synchronized (this) {
        if (state != EXPIRED) {
          state = CLOSED;
        }
      }
      ScheduledFuture<?> scheduled = timer;
      if (scheduled != null) {
        scheduled.cancel(false);
      }
    }
  }

  /** The response, whose body reads fail as a timeout once the deadline has closed it. */
  private static final class BoundedResponse implements ClientHttpResponse {

    private final ClientHttpResponse delegate;
    private final Exchange exchange;
    private @Nullable InputStream body;

    BoundedResponse(ClientHttpResponse delegate, Exchange exchange) {
      this.delegate = delegate;
      this.exchange = exchange;
    }

    @Override
    public HttpStatusCode getStatusCode() throws IOException {
      return delegate.getStatusCode();
    }

    @Override
    public String getStatusText() throws IOException {
      return delegate.getStatusText();
    }

    @Override
    public HttpHeaders getHeaders() {
      return delegate.getHeaders();
    }

    @Override
    public InputStream getBody() throws IOException {
      if (exchange.expired()) {
        throw AttemptDeadlines.expired("before the body was read");
      }
      if (body == null) {
        body = new BoundedBody(delegate.getBody(), exchange);
      }
      return body;
    }

    /** Closes the response (which drains its body) while the deadline still applies, then cancels the timer. */
    @Override
    public void close() {
      try {
        delegate.close();
      } finally {
        exchange.close();
      }
    }
  }

  /** A body that ends with a timeout, not a short read, when the deadline closed it under the reader. */
  private static final class BoundedBody extends FilterInputStream {

    private final Exchange exchange;

    BoundedBody(InputStream body, Exchange exchange) {
      super(body);
      this.exchange = exchange;
    }

    @Override
    public int read() throws IOException {
      int read;
      try {
        read = super.read();
      } catch (IOException failed) {
        throw timeoutOr(failed);
      }
      return ended(read);
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int read;
      try {
        read = super.read(buffer, offset, length);
      } catch (IOException failed) {
        throw timeoutOr(failed);
      }
      return ended(read);
    }

    /** {@code read}, unless it is the end of a body the deadline cut short. */
    private int ended(int read) throws IOException {
      if (read == -1 && exchange.expired()) {
        throw AttemptDeadlines.expired("while reading the body");
      }
      return read;
    }

    private IOException timeoutOr(IOException failed) {
      if (!exchange.expired()) {
        return failed;
      }
      IOException timeout = AttemptDeadlines.expired("while reading the body");
      timeout.initCause(failed);
      return timeout;
    }
  }
}
