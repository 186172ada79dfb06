package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptListener;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.CancellationToken;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ExecutionTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Runs the application's configured {@link ExecutionPolicies} by name on the {@link ResilientRunner} bean and
 * publishes each run as Spring events: an {@link AttemptRecordedEvent} as each attempt ends, then one
 * {@link ExecutionCompletedEvent}, all with the policy name and a fresh execution id.
 *
 * <p>Every run behaves exactly as {@link ResilientRunner#runSync} / {@link ResilientRunner#runAsync} with the named
 * policy: it returns evidence, never throws for a target's failure, and its timeouts follow the runner's rules
 * (cooperative for sync targets, enforced for async ones). Events are published on the thread that ends each attempt,
 * before the result is returned or the future completes. Runs made on the {@code ResilientRunner} bean directly
 * publish no events.
 *
 * <p>Thread-safe; one instance serves the whole application.
 */
public final class ZeoCoreExecutions {

  private final ResilientRunner runner;
  private final ExecutionPolicies policies;
  private final ApplicationEventPublisher events;

  public ZeoCoreExecutions(ResilientRunner runner, ExecutionPolicies policies, ApplicationEventPublisher events) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.policies = Objects.requireNonNull(policies, "policies");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread.
   *
   * @param targets the targets by id; the policy's plan names which are called and in what order
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> ResilientExecutionResult<T> run(String policyName, Map<String, SyncExecutionTarget<T>> targets) {
    return run(policyName, targets, null);
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread, observing {@code cancellation}.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> ResilientExecutionResult<T> run(String policyName, Map<String, SyncExecutionTarget<T>> targets,
      CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runSync(policy, targets, cancellation, new EventPublishingListener(policyName, events));
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread with targets keyed by their own ids.
   *
   * @throws IllegalArgumentException when no policy has that name or two targets share an id
   */
  public <T> ResilientExecutionResult<T> run(String policyName, List<SyncExecutionTarget<T>> targets) {
    return run(policyName, byId(targets), null);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously; see {@link ResilientRunner#runAsync}.
   *
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName,
      Map<String, AsyncExecutionTarget<T>> targets) {
    return runAsync(policyName, targets, null);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously, observing {@code cancellation}.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName,
      Map<String, AsyncExecutionTarget<T>> targets, CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runAsync(policy, targets, cancellation, new EventPublishingListener(policyName, events));
  }

  /**
   * Runs the policy called {@code policyName} asynchronously with targets keyed by their own ids.
   *
   * @throws IllegalArgumentException when no policy has that name or two targets share an id
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName,
      List<AsyncExecutionTarget<T>> targets) {
    return runAsync(policyName, byId(targets), null);
  }

  /** The policies this instance runs. */
  public ExecutionPolicies policies() {
    return policies;
  }

  /** The runner this instance runs on. */
  public ResilientRunner runner() {
    return runner;
  }

  private static <X extends ExecutionTarget<?>> Map<String, X> byId(List<X> targets) {
    Map<String, X> byId = new LinkedHashMap<>();
    for (X target : targets) {
      if (byId.putIfAbsent(target.targetId(), target) != null) {
        throw new IllegalArgumentException("two targets share the id '" + target.targetId() + "'");
      }
    }
    return byId;
  }

  /** Publishes one run's attempts and result under a fresh execution id. */
  private static final class EventPublishingListener implements AttemptListener {

    private final String policyName;
    private final String executionId = UUID.randomUUID().toString();
    private final ApplicationEventPublisher events;

    EventPublishingListener(String policyName, ApplicationEventPublisher events) {
      this.policyName = policyName;
      this.events = events;
    }

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
