package io.zeocore.execution;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Log correlation: while an attempt's target is called (see {@link AttemptListener#targetScope}), the SLF4J MDC holds
 * the run's execution id ({@value #EXECUTION_ID}, the id the starter's events and observations carry too), the policy
 * ({@value #POLICY}), the target ({@value #TARGET}) and the attempt number ({@value #ATTEMPT}), so every line the
 * target logs (and every line its clients log on the calling thread) can be traced to its run. The previous values of
 * those keys are restored when the call returns, on the same thread, so nothing leaks to the next task of a pooled or
 * scheduler thread. Values are names, ids and numbers only. Add it with {@code ResilientRunner.builder().listener(new
 * MdcAttemptListener())}; the Spring Boot starter adds it to its runner unless
 * {@code zeocore.execution.log-correlation=false}.
 */
public final class MdcAttemptListener implements AttemptListener {

  /** MDC key of the run's execution id. */
  public static final String EXECUTION_ID = "zeocore.execution.id";

  /** MDC key of the policy's name. */
  public static final String POLICY = "zeocore.policy";

  /** MDC key of the attempt's target id. */
  public static final String TARGET = "zeocore.target";

  /** MDC key of the attempt's 1-based number. */
  public static final String ATTEMPT = "zeocore.attempt";

  private final @Nullable String executionId;

  /** A listener for a runner; each run gets its own instance carrying the run's execution id. */
  public MdcAttemptListener() {
    this(null);
  }

  private MdcAttemptListener(@Nullable String executionId) {
    this.executionId = executionId;
  }

  @Override
  public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {}

  @Override
  public AttemptListener forRun(ExecutionPolicy policy, String executionId) {
    return new MdcAttemptListener(executionId);
  }

  @Override
  public TargetScope targetScope(ExecutionPolicy policy, AttemptContext context) {
    String[] keys = {EXECUTION_ID, POLICY, TARGET, ATTEMPT};
    String[] values = {executionId, policy.name(), context.targetId(), Integer.toString(context.attemptNumber())};
    String[] previous = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      previous[i] = MDC.get(keys[i]);
      put(keys[i], values[i]);
    }
    return () -> {
      for (int i = 0; i < keys.length; i++) {
        put(keys[i], previous[i]);
      }
    };
  }

  private static void put(String key, @Nullable String value) {
    if (value == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }
}
