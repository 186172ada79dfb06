package io.zeocore.execution;

import java.util.List;

/**
 * The fourteen {@code ZEO_EXEC_*} machine codes of the runner, unchanged from the reference. Nine belong to a
 * {@link FailureKind}; five are refusals produced before any call. ZeoCore adds one of its own,
 * {@link #NOT_STARTED}, outside {@link #ALL}.
 */
public final class MachineCodes {

  public static final String TIMEOUT = "ZEO_EXEC_TIMEOUT";
  public static final String TRANSIENT = "ZEO_EXEC_TRANSIENT";
  public static final String RATE_LIMIT = "ZEO_EXEC_RATE_LIMIT";
  public static final String MALFORMED_RESPONSE = "ZEO_EXEC_MALFORMED_RESPONSE";
  public static final String VALIDATION = "ZEO_EXEC_VALIDATION";
  public static final String AUTHORIZATION = "ZEO_EXEC_AUTHORIZATION";
  public static final String AUTHENTICATION = "ZEO_EXEC_AUTHENTICATION";
  public static final String CANCELLED = "ZEO_EXEC_CANCELLED";
  public static final String PERMANENT = "ZEO_EXEC_PERMANENT";

  /** The policy is {@link OperationMode#EFFECTFUL}: effects need the durable orchestrator. */
  public static final String EFFECTFUL_REQUIRES_PERSISTENCE = "ZEO_EXEC_EFFECTFUL_REQUIRES_PERSISTENCE";
  /** A planned target id has no target, or the target registered under it has another id. */
  public static final String TARGET_UNAVAILABLE = "ZEO_EXEC_TARGET_UNAVAILABLE";
  /** A planned target declares {@code internalMaxAttempts != 1}. */
  public static final String NESTED_RETRIES = "ZEO_EXEC_NESTED_RETRIES";
  /** A planned target is {@link ExecutionMode#SIMULATED} and the policy does not allow simulation. */
  public static final String SIMULATION_NOT_ALLOWED = "ZEO_EXEC_SIMULATION_NOT_ALLOWED";
  /** The planned targets do not all declare the same response type. */
  public static final String RESPONSE_CONTRACT_MISMATCH = "ZEO_EXEC_RESPONSE_CONTRACT_MISMATCH";

  /**
   * ZeoCore's own code, not the reference's (so not in {@link #ALL}): the policy's token budget ({@link ExecutionPolicy#maxTokens})
   * was spent before the next attempt, which therefore never started.
   */
  public static final String BUDGET_EXHAUSTED = "ZEO_EXEC_BUDGET_EXHAUSTED";

  /**
   * ZeoCore's own code, not the reference's (so not in {@link #ALL}): an attempt of a {@link DeadlineMode#ENFORCED}
   * policy whose target was never called — no worker took it before its deadline (a custom
   * {@link ResilientRunner.Builder#deadlineWorkers executor} that was busy), or its target id already had the most
   * abandoned attempts allowed still running ({@link ResilientRunner.Builder#maxAbandonedPerTarget}). Its kind is
   * {@link FailureKind#TRANSIENT} with {@code dispatchStarted=false}: the provider was not reached, and another target
   * or a later attempt may run. A run that ends on it carries it as its terminal code.
   */
  public static final String NOT_STARTED = "ZEO_EXEC_NOT_STARTED";
  /**
   * A streamed run whose attempt failed after its first chunk reached the subscriber: no retry and no fallback follow
   * (they would glue a second answer to part of the first). The run ends {@code FAILED_SAFE} with this code and the
   * attempt's own failure kind ({@code timeout} for an idle stream or the total deadline, {@code transient} for a cut
   * connection, ...); its record's {@link AttemptRecord#stream()} says how much was delivered.
   */
  public static final String STREAM_INTERRUPTED = "ZEO_EXEC_STREAM_INTERRUPTED";

  /**
   * ZeoCore's own code, not the reference's (so not in {@link #ALL}): a planned target was cooling down
   * ({@link TargetHealth}) and was not called. On a {@link AttemptOutcome#SKIPPED} record (with the cooldown's cause as
   * its kind and {@code dispatchStarted=false}), and as the terminal code of a run whose remaining planned targets were
   * all cooling ({@code EXHAUSTED}).
   */
  public static final String TARGET_COOLING = "ZEO_EXEC_TARGET_COOLING";

  /**
   * ZeoCore's own code, not the reference's (so not in {@link #ALL}): the attempt's failure was injected by fault
   * injection ({@link InjectedFault}), not produced by its target, which was not called; the record keeps the injected
   * kind and {@code dispatchStarted=false}. A run that ends on it carries it as its terminal code.
   */
  public static final String FAULT_INJECTED = "ZEO_EXEC_FAULT_INJECTED";

  /** All fourteen codes of the reference, the nine failure codes first in {@link FailureKind} order. */
  public static final List<String> ALL = List.of(TIMEOUT, TRANSIENT, RATE_LIMIT, MALFORMED_RESPONSE, VALIDATION,
      AUTHORIZATION, AUTHENTICATION, CANCELLED, PERMANENT, EFFECTFUL_REQUIRES_PERSISTENCE, TARGET_UNAVAILABLE,
      NESTED_RETRIES, SIMULATION_NOT_ALLOWED, RESPONSE_CONTRACT_MISMATCH);

  private MachineCodes() {}
}
