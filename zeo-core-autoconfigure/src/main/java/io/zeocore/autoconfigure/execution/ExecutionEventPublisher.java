package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.internal.EventRepublisher;
import io.zeocore.execution.AttemptListener;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The {@link AttemptListener} that turns every run of the application's {@link io.zeocore.execution.ResilientRunner}
 * into Spring events: an {@link AttemptRecordedEvent} as each attempt ends, then one {@link ExecutionCompletedEvent},
 * all with the policy's {@link ExecutionPolicy#name() name} and a fresh execution id per run. The auto-configured
 * runner bean carries it, so runs on the injected {@code ResilientRunner} and on {@link ZeoCoreExecutions} alike are
 * published (and counted by the metrics, which listen to the events); there is no silent path.
 *
 * <p>Events are published on the thread that ends each attempt, before the result is returned or the run's future
 * completes. They carry records and codes only.
 */
public final class ExecutionEventPublisher extends EventRepublisher implements AttemptListener {

  public ExecutionEventPublisher(ApplicationEventPublisher events) {
    super(events);
  }

  /** Called for runs that did not go through {@link #forRun}: published under a fresh execution id each. */
  @Override
  public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
    forRun(policy, UUID.randomUUID().toString()).attemptFinished(policy, record);
  }

  @Override
  public void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {
    forRun(policy, UUID.randomUUID().toString()).runFinished(policy, result);
  }

  /** A publisher for one run: its attempts and result carry the runner's execution id for it. */
  @Override
  public AttemptListener forRun(ExecutionPolicy policy, String executionId) {
    return new RunPublisher(policy.name(), executionId, events());
  }

  /** Whether this publisher publishes to {@code publisher}. */
  boolean publishesTo(ApplicationEventPublisher publisher) {
    return events() == publisher;
  }

  /** Publishes one run's events, under the policy's name and the run's execution id. */
  private record RunPublisher(String policyName, String executionId, ApplicationEventPublisher events)
      implements AttemptListener {

    @Override
    public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
      events.publishEvent(new AttemptRecordedEvent(policyName, executionId, record));
    }

    @Override
    public void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {
      events.publishEvent(ExecutionCompletedEvent.of(policyName, executionId, result));
    }
  }
}
