package io.zeocore.execution;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An {@link AttemptListener} that keeps, in order, every attempt record it is told about and every finished run's
 * result; both lists may be read while runs are still going.
 */
public final class RecordingAttemptListener implements AttemptListener {

  /** Every {@link #attemptFinished} record, in the order heard. */
  public final List<AttemptRecord> attempts = new CopyOnWriteArrayList<>();

  /** Every {@link #runFinished} result, in the order heard. */
  public final List<ResilientExecutionResult<?>> runs = new CopyOnWriteArrayList<>();

  @Override
  public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
    attempts.add(record);
  }

  @Override
  public void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {
    runs.add(result);
  }
}
