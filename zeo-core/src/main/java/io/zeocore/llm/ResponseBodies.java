package io.zeocore.llm;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;

/**
 * Body handling of a chat response: a 2xx body is read up to a byte cap, any other body is never read (the connection
 * is closed instead), so provider error text never enters the process's memory as a value.
 */
final class ResponseBodies {

  private ResponseBodies() {}

  /** Reads 2xx bodies up to {@code maxBytes}; completes other responses with {@code null} without reading them. */
  static HttpResponse.BodyHandler<byte[]> handler(long maxBytes) {
    return info -> info.statusCode() >= 200 && info.statusCode() <= 299
        ? new Capped(maxBytes)
        : new Unread();
  }

  /** The body exceeded the cap; the exchange was abandoned. */
  static final class TooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    TooLargeException() {
      super("response body exceeds the size limit");
    }
  }

  /** Accumulates at most {@code maxBytes}; beyond that cancels the subscription and fails. */
  static final class Capped implements BodySubscriber<byte[]> {

    private final long maxBytes;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private byte[] buffer = new byte[1024];
    private int size;
    private Flow.@Nullable Subscription subscription;

    Capped(long maxBytes) {
      this.maxBytes = maxBytes;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      if (body.isDone()) {
        return;
      }
      for (ByteBuffer item : items) {
        int length = item.remaining();
        if ((long) size + length > maxBytes) {
          buffer = new byte[0]; // released: nothing more is read
          Flow.Subscription current = subscription;
          if (current != null) { // always set: onNext follows onSubscribe
            current.cancel();
          }
          body.completeExceptionally(new TooLargeException());
          return;
        }
        if (size + length > buffer.length) {
          buffer = Arrays.copyOf(buffer, (int) Math.min(maxBytes, Math.max((long) buffer.length * 2, size + length)));
        }
        item.get(buffer, size, length);
        size += length;
      }
    }

    @Override
    public void onError(Throwable throwable) {
      body.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      if (!body.isDone()) {
        body.complete(Arrays.copyOf(buffer, size));
      }
    }
  }

  /** Cancels the subscription at once and completes with {@code null}: the body is never read. */
  static final class Unread implements BodySubscriber<byte[]> {

    private final CompletableFuture<byte[]> body = new CompletableFuture<>();

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
      body.complete(null);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {}

    @Override
    public void onError(Throwable throwable) {
      body.complete(null);
    }

    @Override
    public void onComplete() {
      body.complete(null);
    }
  }
}
