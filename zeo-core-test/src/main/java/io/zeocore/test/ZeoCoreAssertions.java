package io.zeocore.test;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ResilientExecutionResult;

/**
 * Entry point of the kit's AssertJ assertions: {@code import static io.zeocore.test.ZeoCoreAssertions.assertThat;}
 * next to AssertJ's own (overloads do not clash).
 *
 * <pre>{@code
 * assertThat(result).answeredBy("fallback")
 *     .tookPath("primary:rate_limit", "fallback:succeeded")
 *     .tookExactly(Duration.ofSeconds(2));
 * assertThat(result).attempt(1).failedWith(FailureKind.RATE_LIMIT).thenWaited(Duration.ofSeconds(2));
 * }</pre>
 */
public final class ZeoCoreAssertions {

  private ZeoCoreAssertions() {}

  /** Assertions on a run's result. */
  public static <T> ExecutionResultAssert<T> assertThat(ResilientExecutionResult<T> result) {
    return new ExecutionResultAssert<>(result);
  }

  /** Assertions on one attempt record. */
  public static AttemptRecordAssert assertThat(AttemptRecord record) {
    return new AttemptRecordAssert(record, null);
  }
}
