package io.zeocore.capability;

import io.zeocore.EffectKind;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Runner targets that make one {@link BoundCapability} invocation per attempt, so that the
 * {@link io.zeocore.execution.ResilientRunner} is the only owner of retries and fallback.
 *
 * <p><strong>Only read capabilities.</strong> Building a target for a capability whose declared effects are not
 * exactly {@code {READ}} throws {@link IllegalArgumentException} — a programming error, not a run-time outcome: an
 * effect whose outcome is uncertain cannot be retried from memory and needs durable orchestration
 * ({@code io.zeocore.connections.effect.EffectOrchestrator}). The policy's operation mode is checked separately by the
 * runner.
 *
 * <p><strong>Bridging.</strong> Each attempt gets a fresh {@link CapabilityContext} carrying the runner's cancellation
 * token and a deadline of the attempt's {@link AttemptContext#timeout()}. A synchronous target awaits an asynchronous
 * handler under that deadline; the async target's future, when cancelled by the runner's attempt timeout, cancels the
 * handler's stage.
 *
 * <p><strong>Outcome mapping</strong> (with {@code dispatchStarted} = whether the handler was entered):
 * <table>
 *   <caption>Capability outcome to attempt failure</caption>
 *   <tr><th>Outcome</th><th>Attempt</th><th>Typical run outcome</th></tr>
 *   <tr><td>succeeded</td><td>the whole {@link CapabilityResult} is the value</td><td>SUCCEEDED</td></tr>
 *   <tr><td>guard_rejected</td><td>VALIDATION</td><td>REFUSED</td></tr>
 *   <tr><td>cancelled</td><td>CANCELLED</td><td>CANCELLED</td></tr>
 *   <tr><td>timed_out</td><td>TIMEOUT</td><td>retried when the plan allows, else EXHAUSTED</td></tr>
 *   <tr><td>policy_skipped, unavailable, integration_failure, invalid_return, unexpected_exception</td>
 *       <td>PERMANENT</td><td>FAILED_SAFE</td></tr>
 * </table>
 * Deliberate differences from the reference: {@code unavailable} and {@code policy_skipped} found before the handler
 * runs are pre-dispatch ({@code dispatchStarted=false}; the reference said {@code true}), a cancellation observed
 * while the handler ran is {@code dispatchStarted=true}, and {@code timed_out} is new.
 */
public final class CapabilityTargets {

  private static final Set<EffectKind> READ_ONLY = EnumSet.of(EffectKind.READ);

  private CapabilityTargets() {}

  /**
   * A {@link io.zeocore.execution.ExecutionMode#LIVE} synchronous target invoking {@code capability} with
   * {@code request} once per attempt via {@link BoundCapability#invokeSync}.
   *
   * @throws IllegalArgumentException when the declared effects are not exactly {@code {READ}}, or the target id breaks
   *     the target-id rule
   */
  public static <Req, Res> SyncExecutionTarget<CapabilityResult<Res>> sync(String targetId,
      BoundCapability<Req, Res> capability, Req request) {
    requireReadOnly(capability);
    Objects.requireNonNull(request, "request");
    return SyncExecutionTarget.of(targetId, resultType(),
        context -> unwrap(capability.invokeSync(request, bridge(context))));
  }

  /**
   * A {@link io.zeocore.execution.ExecutionMode#LIVE} asynchronous target invoking {@code capability} with
   * {@code request} once per attempt via {@link BoundCapability#invokeAsync}. A capability with a blocking handler is
   * accepted and runs on the thread that starts the attempt.
   *
   * @throws IllegalArgumentException when the declared effects are not exactly {@code {READ}}, or the target id breaks
   *     the target-id rule
   */
  public static <Req, Res> AsyncExecutionTarget<CapabilityResult<Res>> async(String targetId,
      BoundCapability<Req, Res> capability, Req request) {
    requireReadOnly(capability);
    Objects.requireNonNull(request, "request");
    return AsyncExecutionTarget.of(targetId, resultType(), context -> {
      CompletableFuture<CapabilityResult<Res>> invocation = capability.invokeAsync(request, bridge(context));
      CompletableFuture<CapabilityResult<Res>> attempt = invocation.thenApply(CapabilityTargets::unwrap);
      attempt.whenComplete((ignored, thrown) -> {
        if (attempt.isCancelled()) {
          invocation.cancel(true);
        }
      });
      return attempt;
    });
  }

  private static void requireReadOnly(BoundCapability<?, ?> capability) {
    Objects.requireNonNull(capability, "capability");
    if (!capability.effects().equals(READ_ONLY)) {
      throw new IllegalArgumentException("resilient capability adapters currently support exactly READ effects; "
          + "effectful execution requires persisted orchestration");
    }
  }

  private static CapabilityContext bridge(AttemptContext context) {
    return CapabilityContext.of(context.cancellation(), context.timeout());
  }

  /** The success itself, or the attempt failure of any other outcome. */
  static <Res> CapabilityResult<Res> unwrap(CapabilityResult<Res> result) {
    FailureKind kind = switch (result.outcome()) {
      case SUCCEEDED -> null;
      case GUARD_REJECTED -> FailureKind.VALIDATION;
      case CANCELLED -> FailureKind.CANCELLED;
      case TIMED_OUT -> FailureKind.TIMEOUT;
      case POLICY_SKIPPED, UNAVAILABLE, INTEGRATION_FAILURE, INVALID_RETURN, UNEXPECTED_EXCEPTION ->
          FailureKind.PERMANENT;
    };
    if (kind == null) {
      return result;
    }
    throw new AttemptError(kind, result.handlerStarted());
  }

  @SuppressWarnings("unchecked")
  private static <Res> Class<CapabilityResult<Res>> resultType() {
    return (Class<CapabilityResult<Res>>) (Class<?>) CapabilityResult.class;
  }
}
