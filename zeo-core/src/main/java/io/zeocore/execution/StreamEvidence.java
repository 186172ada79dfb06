package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.JsonMilliseconds;
import java.io.Serializable;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What one streamed attempt delivered to its subscriber, never what the chunks said: how many chunks and when the first
 * one arrived. The value of a successful streamed run ({@link StreamExecution#result()}) and, on every streamed attempt,
 * {@link AttemptRecord#stream()}. Tokens are in the attempt's {@link AttemptRecord#usage()} when its target reported
 * them.
 *
 * @param chunks the chunks handed to the subscriber, {@code 0} when none was
 * @param timeToFirstChunk from the attempt's start to the delivery of its first chunk, {@code null} when none was
 *     delivered
 */
public record StreamEvidence(
    long chunks,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonMilliseconds @Nullable Duration timeToFirstChunk)
    implements Serializable {

  /** An attempt that delivered nothing. */
  public static final StreamEvidence NOTHING_DELIVERED = new StreamEvidence(0, null);

  public StreamEvidence {
    if (chunks < 0) {
      throw new IllegalArgumentException("chunks must not be negative");
    }
    if ((chunks == 0) != (timeToFirstChunk == null)) {
      throw new IllegalArgumentException("timeToFirstChunk is present exactly when a chunk was delivered");
    }
    if (timeToFirstChunk != null) {
      Durations.nonNegative(timeToFirstChunk, "timeToFirstChunk");
    }
  }

  /** Whether part of an answer reached the subscriber: after that no attempt may follow. */
  public boolean partialOutputDelivered() {
    return chunks > 0;
  }
}
