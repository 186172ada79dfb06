package io.zeocore.execution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Runs named {@link ExecutionPolicies} on a {@link ResilientRunner}, with targets passed per call (a map or list) or
 * registered once as {@link NamedTarget}s ({@link TargetRegistry}), so that the plan is configuration only. Every run
 * reaches the runner's {@link AttemptListener}s, each with the policy name and a fresh execution id.
 *
 * <p>In plain Java: {@code new ZeoCoreExecutions(ResilientRunner.create(), ExecutionPolicies.of(policies),
 * TargetRegistry.of(targets))}. The Spring Boot starter's bean runs the policies of {@code zeocore.execution.policies}
 * with the {@code NamedTarget} beans on its runner, which publishes every run as Spring events.
 *
 * <p>Every run behaves exactly as {@link ResilientRunner#runSync} / {@link ResilientRunner#runAsync} with the named
 * policy: it returns evidence, never throws for a target's failure, and its timeouts follow the runner's rules
 * (cooperative for sync targets unless the policy's deadline is enforced, enforced for async ones). Registered
 * {@linkplain NamedTarget#ofAsync async} targets are enforced in both: {@link #runAsync(String, Object, Class)} runs a
 * plan of them without holding a thread, {@link #run(String, Object, Class)} waits for each at most its timeout.
 *
 * <p>Thread-safe; one instance serves the whole application.
 */
public final class ZeoCoreExecutions {

  private final ResilientRunner runner;
  private final ExecutionPolicies policies;
  private final TargetRegistry registry;

  /** Runs {@code policies} on {@code runner} with targets passed per call. */
  public ZeoCoreExecutions(ResilientRunner runner, ExecutionPolicies policies) {
    this(runner, policies, TargetRegistry.empty());
  }

  /**
   * @param registry the targets that {@link #run(String, Object, Class)} binds by id
   */
  public ZeoCoreExecutions(ResilientRunner runner, ExecutionPolicies policies, TargetRegistry registry) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.policies = Objects.requireNonNull(policies, "policies");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread with the registered targets its plan names, each
   * called with {@code input}: no map, the plan is configuration only. A planned id that no target is registered
   * under ends the run {@code REFUSED} ({@code ZEO_EXEC_TARGET_UNAVAILABLE}, the id in
   * {@link ResilientExecutionResult#refusedTargetId()}); the Spring Boot starter stops start-up before that can
   * happen.
   *
   * @throws IllegalArgumentException when no policy has that name, or a planned target takes another input type or
   *     returns another response type (no target is called)
   */
  public <I, T> ResilientExecutionResult<T> run(String policyName, I input, Class<T> responseType) {
    return run(policyName, input, responseType, null);
  }

  /**
   * Runs the policy called {@code policyName} with the registered targets, observing {@code cancellation}; see
   * {@link #run(String, Object, Class)}.
   *
   * @param cancellation the host's token, or {@code null} for none
   */
  public <I, T> ResilientExecutionResult<T> run(String policyName, I input, Class<T> responseType,
      @Nullable CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runSync(policy, registry.bind(policy, input, responseType), cancellation);
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread.
   *
   * @param targets the targets by id; the policy's plan names which are called and in what order
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> ResilientExecutionResult<T> run(String policyName, Map<String, SyncExecutionTarget<T>> targets) {
    return run(policyName, targets, (CancellationToken) null);
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread, observing {@code cancellation}.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> ResilientExecutionResult<T> run(String policyName, Map<String, SyncExecutionTarget<T>> targets,
      @Nullable CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runSync(policy, targets, cancellation);
  }

  /**
   * Runs the policy called {@code policyName} on the calling thread with targets keyed by their own ids.
   *
   * @throws IllegalArgumentException when no policy has that name or two targets share an id
   */
  public <T> ResilientExecutionResult<T> run(String policyName, List<SyncExecutionTarget<T>> targets) {
    return run(policyName, byId(targets), (CancellationToken) null);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously with the registered targets its plan names, each called
   * with {@code input}; every one of them must be {@linkplain NamedTarget#ofAsync async}
   * ({@link TargetRegistry#isAsyncPlan}). No thread waits while a target works; each attempt's stage is cancelled
   * when its timeout expires, and cancelling the returned future cancels the run (the attempt in flight is cancelled,
   * the run ends {@code CANCELLED}). A planned id no target is registered under ends the run {@code REFUSED}.
   *
   * @throws IllegalArgumentException when no policy has that name, or a planned target takes another input type,
   *     returns another response type or is synchronous (no target is called)
   */
  public <I, T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName, I input,
      Class<T> responseType) {
    return runAsync(policyName, input, responseType, null);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously with the registered targets, observing
   * {@code cancellation}; see {@link #runAsync(String, Object, Class)}.
   *
   * @param cancellation the host's token, or {@code null} for none
   */
  public <I, T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName, I input,
      Class<T> responseType, @Nullable CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runAsync(policy, registry.bindAsync(policy, input, responseType), cancellation);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously; see {@link ResilientRunner#runAsync}.
   *
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName,
      Map<String, AsyncExecutionTarget<T>> targets) {
    return runAsync(policyName, targets, (CancellationToken) null);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously, observing {@code cancellation}.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName,
      Map<String, AsyncExecutionTarget<T>> targets, @Nullable CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runAsync(policy, targets, cancellation);
  }

  /**
   * Runs the policy called {@code policyName} asynchronously with targets keyed by their own ids.
   *
   * @throws IllegalArgumentException when no policy has that name or two targets share an id
   */
  public <T> CompletableFuture<ResilientExecutionResult<T>> runAsync(String policyName,
      List<AsyncExecutionTarget<T>> targets) {
    return runAsync(policyName, byId(targets), (CancellationToken) null);
  }

  /**
   * Streams the policy called {@code policyName} with targets keyed by their own ids; see
   * {@link ResilientRunner#runStream} (fallback only before the first chunk reaches the subscriber).
   *
   * @throws IllegalArgumentException when no policy has that name or two targets share an id
   */
  public <T> StreamExecution<T> runStream(String policyName, List<StreamExecutionTarget<T>> targets) {
    return runStream(policyName, byId(targets), null);
  }

  /**
   * Streams the policy called {@code policyName}, observing {@code cancellation}; see {@link ResilientRunner#runStream}.
   *
   * @param cancellation the host's token, or {@code null} for none
   * @throws IllegalArgumentException when no policy has that name (no target is called)
   */
  public <T> StreamExecution<T> runStream(String policyName, Map<String, StreamExecutionTarget<T>> targets,
      @Nullable CancellationToken cancellation) {
    ExecutionPolicy policy = policies.get(policyName);
    return runner.runStream(policy, targets, cancellation, null);
  }

  /** The policies this instance runs. */
  public ExecutionPolicies policies() {
    return policies;
  }

  /** The targets {@link #run(String, Object, Class)} binds by id. */
  public TargetRegistry targets() {
    return registry;
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
}
