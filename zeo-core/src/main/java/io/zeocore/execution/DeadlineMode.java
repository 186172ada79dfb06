package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;

/**
 * How {@link ResilientRunner#runSync} applies a policy's attempt timeout ({@link ResilientRunner#runAsync} always
 * enforces it by cancelling the attempt's future).
 */
public enum DeadlineMode implements WireValue.Lowercase {

  /**
   * The attempt runs on the calling thread and must apply {@link AttemptContext#timeout()} itself: the runner cannot
   * stop in-process code. No extra thread, no hand-off. The default.
   */
  COOPERATIVE,

  /**
   * The attempt runs on a worker thread (a virtual thread on Java 21 and newer, detected at run time; on Java 17 a
   * JVM-wide pool of daemon threads that grows instead of queueing, so abandoned work never delays another attempt).
   * The caller waits at most {@code min(attemptTimeout, remaining)}, then interrupts the worker, records
   * {@link FailureKind#TIMEOUT} and moves on. Interrupting is all Java can do: work that ignores interrupts is
   * abandoned, not stopped, and may still finish later (its result is discarded). A target id with
   * {@link ResilientRunner.Builder#maxAbandonedPerTarget} abandoned calls still running (default 64) is not started
   * again until some return: its attempts fail at once {@code TRANSIENT}, {@code dispatchStarted=false},
   * {@link MachineCodes#NOT_STARTED}, as does an attempt no worker started before its deadline. The worker does not
   * see the caller's thread-locals (transactions, security context, MDC).
   */
  ENFORCED;

  /**
   * Parses a wire value or, leniently, the constant name.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static DeadlineMode fromWireValue(String value) {
    return WireValues.parseLenient(DeadlineMode.class, value);
  }
}
