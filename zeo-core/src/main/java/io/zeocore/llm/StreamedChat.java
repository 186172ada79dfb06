package io.zeocore.llm;

import io.zeocore.internal.RetryAfterHeader;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One streamed chat request, sent when subscribed: the reply's content deltas as they arrive, one {@code String} per
 * non-empty delta. The body is read from the JDK {@link HttpClient} one buffer at a time and only while the subscriber
 * has asked for more than is already parsed, so a slow subscriber holds the socket back (TCP backpressure) instead of
 * filling memory; no thread is held. Cancelling the subscription cancels the exchange: before the response, its
 * future; after it, the body's subscription, which closes the connection.
 *
 * <p>Errors, always {@link LlmCallException}s without provider text: a status outside 2xx (its Retry-After kept); a
 * connection not established (nothing sent); a line the provider's format does not read, or a body over the client's
 * size limit ({@code MALFORMED_RESPONSE}); a body that ends before the provider's end marker, or a transport failure
 * ({@code TRANSPORT}: the stream was cut). Signals are serialized by a work-in-progress counter: no lock is held while
 * the subscriber is called.
 */
final class StreamedChat implements Flow.Publisher<String> {

  /** What one line of a provider's stream says. */
  record Line(@Nullable String content, boolean done, @Nullable Long inputTokens, @Nullable Long outputTokens,
      @Nullable String responseModel) {

    static final Line NOTHING = new Line(null, false, null, null, null);
  }

  /** Reads one line of the provider's stream; throws {@code MALFORMED_RESPONSE} for one it cannot read. */
  @FunctionalInterface
  interface LineReader {
    Line read(String line) throws LlmCallException;
  }

  private final HttpLlmClient client;
  private final HttpClient http;
  private final HttpRequest request;
  private final LineReader reader;
  private final long maxResponseBytes;
  private final InstantSource clock;
  private final Consumer<Line> finalLine;
  private final AtomicBoolean subscribed = new AtomicBoolean();

  StreamedChat(HttpLlmClient client, HttpClient http, HttpRequest request, LineReader reader, long maxResponseBytes,
      InstantSource clock, Consumer<Line> finalLine) {
    this.client = client;
    this.http = http;
    this.request = request;
    this.reader = reader;
    this.maxResponseBytes = maxResponseBytes;
    this.clock = clock;
    this.finalLine = finalLine;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super String> subscriber) {
    if (!subscribed.compareAndSet(false, true)) {
      subscriber.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      });
      subscriber.onError(new IllegalStateException("a streamed chat request is sent once: subscribe once"));
      return;
    }
    Exchange exchange = new Exchange(subscriber);
    subscriber.onSubscribe(exchange);
    exchange.send();
  }

  /** The exchange of one subscription: the bridge from the body's buffers to the subscriber's chunks. */
  private final class Exchange implements Flow.Subscription, Flow.Subscriber<List<ByteBuffer>> {

    private final Flow.Subscriber<? super String> downstream;
    private final AtomicLong demand = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> parsed = new ConcurrentLinkedQueue<>();
    private volatile @Nullable CompletableFuture<HttpResponse<Flow.Publisher<List<ByteBuffer>>>> response;
    private volatile Flow.@Nullable Subscription body;
    private volatile boolean cancelled;
    private volatile boolean bodyRequested;
    private volatile boolean bodyEnded;
    private volatile @Nullable Throwable failure;
    private volatile boolean done;
    private boolean terminated;
    // confined to the body's signals (serialized by the HTTP client)
    private final ByteArrayOutputStream pendingLine = new ByteArrayOutputStream();
    private long received;

    Exchange(Flow.Subscriber<? super String> downstream) {
      this.downstream = downstream;
    }

    void send() {
      CompletableFuture<HttpResponse<Flow.Publisher<List<ByteBuffer>>>> sent;
      try {
        sent = http.sendAsync(request, HttpResponse.BodyHandlers.ofPublisher());
      } catch (RuntimeException unusable) {
        fail(client.failure(LlmCallException.Reason.CONFIGURATION, false, unusable.getClass().getName(), null));
        return;
      }
      response = sent;
      if (cancelled) {
        sent.cancel(true);
        return;
      }
      sent.whenComplete((answer, thrown) -> {
        if (thrown != null) {
          fail(client.classify(thrown));
        } else if (answer.statusCode() < 200 || answer.statusCode() > 299) {
          answer.body().subscribe(Discard.INSTANCE); // releases the exchange without reading provider text
          fail(LlmCallException.httpStatus(client.provider(), answer.statusCode(), RetryAfterHeader.parse(
              answer.headers().firstValue("retry-after").orElse(null),
              answer.headers().firstValue("retry-after-ms").orElse(null), clock)));
        } else if (cancelled || failure != null) {
          answer.body().subscribe(Discard.INSTANCE);
        } else {
          answer.body().subscribe(this);
        }
      });
    }

    // ------------------------------------------------------------------ the subscriber's side

    @Override
    public void request(long n) {
      if (n <= 0) { // rule 3.9: the exchange ends and the subscriber hears why
        if (failure == null) {
          failure = new IllegalArgumentException("request must be positive, was " + n);
        }
        cancelExchange();
        drain();
        return;
      }
      long current;
      long next;
      do {
        current = demand.get();
        next = current + n < 0 ? Long.MAX_VALUE : current + n;
      } while (!demand.compareAndSet(current, next));
      drain();
    }

    @Override
    public void cancel() {
      cancelled = true;
      cancelExchange();
    }

    /** Abandons the exchange: its pending response, or its body's subscription (the JDK client then closes it). */
    private void cancelExchange() {
      CompletableFuture<HttpResponse<Flow.Publisher<List<ByteBuffer>>>> sent = response;
      if (sent != null && !sent.isDone()) {
        sent.cancel(true);
      }
      Flow.Subscription subscription = body;
      if (subscription != null) {
        subscription.cancel(); // the JDK client closes the connection
      }
    }

    // ------------------------------------------------------------------ the body's side

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      body = subscription;
      if (cancelled || failure != null) {
        subscription.cancel();
        return;
      }
      drain();
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      bodyRequested = false;
      try {
        for (ByteBuffer buffer : buffers) {
          received += buffer.remaining();
          if (received > maxResponseBytes) {
            throw client.failure(LlmCallException.Reason.MALFORMED_RESPONSE, true,
                "response body exceeds " + maxResponseBytes + " bytes", null);
          }
          while (buffer.hasRemaining()) {
            byte b = buffer.get();
            if (b == '\n') {
              line(pendingLine.toString(StandardCharsets.UTF_8));
              pendingLine.reset();
            } else {
              pendingLine.write(b);
            }
          }
        }
      } catch (LlmCallException unreadable) {
        Flow.Subscription subscription = body;
        if (subscription != null) {
          subscription.cancel();
        }
        fail(unreadable);
        return;
      }
      drain();
    }

    private void line(String text) throws LlmCallException {
      String line = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      if (done || line.isBlank()) {
        return;
      }
      Line read = reader.read(line);
      if (read.content() != null && !read.content().isEmpty()) {
        parsed.add(read.content());
      }
      if (read.done()) {
        done = true;
      }
      if (read.inputTokens() != null || read.outputTokens() != null || read.responseModel() != null) {
        finalLine.accept(read);
      }
    }

    @Override
    public void onError(Throwable thrown) {
      bodyEnded = true;
      fail(client.classify(thrown));
    }

    @Override
    public void onComplete() {
      if (pendingLine.size() > 0) {
        try {
          line(pendingLine.toString(StandardCharsets.UTF_8));
        } catch (LlmCallException unreadable) {
          bodyEnded = true;
          fail(unreadable);
          return;
        }
        pendingLine.reset();
      }
      bodyEnded = true;
      if (!done) {
        fail(client.failure(LlmCallException.Reason.TRANSPORT, true, "the stream ended before its end marker",
            null));
        return;
      }
      drain();
    }

    // ------------------------------------------------------------------ delivery

    private void fail(LlmCallException cause) {
      if (failure == null) {
        failure = cause;
      }
      drain();
    }

    /** Delivers what is parsed while the subscriber asks; asks the body for one more buffer when nothing is parsed. */
    private void drain() {
      if (wip.getAndIncrement() != 0) {
        return;
      }
      int missed = 1;
      do {
        if (terminated) {
          return;
        }
        if (cancelled) {
          terminated = true;
          parsed.clear();
          return;
        }
        Throwable failed = failure;
        if (failed != null) {
          terminated = true;
          parsed.clear();
          downstream.onError(failed);
          return;
        }
        long delivered = 0;
        long wanted = demand.get();
        while (delivered < wanted && !cancelled) {
          String chunk = parsed.poll();
          if (chunk == null) {
            break;
          }
          downstream.onNext(chunk);
          delivered++;
        }
        if (delivered > 0) {
          demand.addAndGet(-delivered);
        }
        if (parsed.isEmpty() && done && bodyEnded && !cancelled && failure == null) {
          terminated = true;
          downstream.onComplete();
          return;
        }
        Flow.Subscription subscription = body;
        // after the end marker the body is read to its end whatever the demand, so that the stream completes
        if (subscription != null && parsed.isEmpty() && (demand.get() > 0 || done) && !bodyRequested && !bodyEnded
            && !cancelled) {
          bodyRequested = true;
          subscription.request(1);
        }
        missed = wip.addAndGet(-missed);
      } while (missed != 0);
    }
  }

  /** Reads and drops a body nobody will parse, so that its exchange is released. */
  private enum Discard implements Flow.Subscriber<List<ByteBuffer>> {
    INSTANCE;

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
    }

    @Override
    public void onNext(List<ByteBuffer> item) {}

    @Override
    public void onError(Throwable throwable) {}

    @Override
    public void onComplete() {}
  }
}
