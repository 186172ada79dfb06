package io.zeocore.execution;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * A streamed run of a plan ({@link ResilientRunner#runStream}): a cold {@link Flow.Publisher} of the answering
 * attempt's chunks, and the run's result once it is over. Nothing runs until the subscriber first requests; one
 * subscriber only (a second one gets {@code onError} with an {@link IllegalStateException}).
 *
 * <p>The rule: until the first chunk is delivered, a stream is just an attempt. A failure, a refused connection or the
 * first-chunk timeout ends it with its failure kind and the plan continues (retry or fallback, backoff, one total
 * deadline), and the subscriber sees nothing of it. Once a chunk is delivered, nothing is ever retried or replayed: a
 * failure, the idle timeout or the total deadline ends the stream with {@code onError} carrying an
 * {@link ExecutionFailedException} whose result is {@code FAILED_SAFE} with {@link MachineCodes#STREAM_INTERRUPTED}.
 * A run that ends without a chunk (plan exhausted, refused, ...) ends the same way with its own outcome. A completed
 * stream is {@code SUCCEEDED}, its value the answering attempt's {@link StreamEvidence}. Cancelling the subscription
 * cancels the run: the attempt's publisher is cancelled, the result is {@code CANCELLED} and the subscriber hears
 * nothing more.
 *
 * @param <T> the type of each chunk
 */
public interface StreamExecution<T> extends Flow.Publisher<T> {

  /**
   * The run's result, completed when the run ends: after the subscriber's {@code onComplete} or {@code onError}, or
   * when it cancelled. Never completes exceptionally except for an {@link Error} thrown by a target, or a
   * {@link java.util.concurrent.RejectedExecutionException} when a custom scheduler has been shut down.
   */
  CompletableFuture<ResilientExecutionResult<StreamEvidence>> result();
}
