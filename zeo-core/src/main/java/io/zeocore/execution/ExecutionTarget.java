package io.zeocore.execution;

import org.jspecify.annotations.Nullable;

/**
 * One named thing the runner may call: a {@link SyncExecutionTarget} for {@link ResilientRunner#runSync}, an
 * {@link AsyncExecutionTarget} for {@link ResilientRunner#runAsync} or a {@link StreamExecutionTarget} for
 * {@link ResilientRunner#runStream}. The split is in the types, so a sync runner can never receive an async target or
 * the reverse.
 *
 * <p>Targets are validated when constructed: the id matches the target-id rule, the response type is a reference type,
 * the execution mode is {@link ExecutionMode#LIVE} or {@link ExecutionMode#SIMULATED}, and
 * {@code internalMaxAttempts >= 1}. A value other than one is representable so that the runner can refuse it with
 * {@link MachineCodes#NESTED_RETRIES}: a target that retries internally hides calls from the policy.
 *
 * @param <T> the response type every value of this target has
 */
public sealed interface ExecutionTarget<T> permits SyncExecutionTarget, AsyncExecutionTarget, StreamExecutionTarget {

  /** The id under which policies plan this target. */
  String targetId();

  /** Every value the target returns must be an instance of this type, otherwise the attempt is malformed. */
  Class<T> responseType();

  /** {@link ExecutionMode#LIVE} or {@link ExecutionMode#SIMULATED}; copied into records and successful results. */
  ExecutionMode executionMode();

  /** How many provider calls one invocation may make; the runner refuses anything but 1. */
  int internalMaxAttempts();

  /**
   * A failure known before dispatch (absent credentials, missing authority), or {@code null}. When the runner reaches
   * this target's plan position it ends the run with this kind and makes no call: {@code REFUSED} for
   * {@link FailureKind#VALIDATION} and {@link FailureKind#AUTHORIZATION}, {@code FAILED_SAFE} for every other kind
   * (also {@link FailureKind#CANCELLED}, which then carries {@code ZEO_EXEC_CANCELLED}). Later targets are not tried
   * and no attempt record is written, exactly as in the reference.
   */
  @Nullable FailureKind preflightFailure();

  static void validate(String targetId, Class<?> responseType, Object invocation, ExecutionMode executionMode,
      int internalMaxAttempts) {
    TargetIds.require(targetId);
    if (responseType == null) {
      throw new IllegalArgumentException("responseType must not be null");
    }
    if (responseType.isPrimitive()) {
      throw new IllegalArgumentException("responseType must be a reference type, not " + responseType.getName());
    }
    if (invocation == null) {
      throw new IllegalArgumentException("invocation must not be null");
    }
    if (executionMode == null || executionMode == ExecutionMode.NONE) {
      throw new IllegalArgumentException("executionMode must be LIVE or SIMULATED");
    }
    if (internalMaxAttempts < 1) {
      throw new IllegalArgumentException("internalMaxAttempts must be at least 1");
    }
  }
}
