package io.zeocore.autoconfigure.faults;

import io.zeocore.autoconfigure.execution.InvalidExecutionPolicyPropertyException;
import io.zeocore.autoconfigure.faults.ZeoCoreFaultsProperties.TargetFault;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.InjectedFault;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.TargetRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;

/**
 * Wraps the registered targets named under {@code zeocore.faults.targets} in the application's
 * {@link TargetRegistry}: at the configured rate a call is replaced by an {@link InjectedFault} of the configured kind
 * (the target is not called), or hangs for its attempt timeout (an async target for nine tenths of it, so that the
 * injected failure comes before the runner's own timer) and then fails {@code timeout} (injected), or is
 * delayed by the configured latency and then made. Only the runner's registered targets are wrapped: effects never go
 * through the registry, so they are never faulted.
 */
final class FaultInjectingTargets implements BeanPostProcessor, ApplicationEventPublisherAware {

  private static final Logger log = LoggerFactory.getLogger(FaultInjectingTargets.class);

  private final Map<String, TargetFault> faults;
  private @Nullable ApplicationEventPublisher events;

  FaultInjectingTargets(Map<String, TargetFault> faults) {
    this.faults = Map.copyOf(faults);
  }

  /** The ids of the targets that get faults. */
  java.util.Set<String> faultedIds() {
    return faults.keySet();
  }

  @Override
  public void setApplicationEventPublisher(ApplicationEventPublisher events) {
    this.events = events;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (!(bean instanceof TargetRegistry registry)) {
      return bean;
    }
    for (String id : faults.keySet()) {
      if (registry.find(id).isEmpty()) {
        String nearest = io.zeocore.autoconfigure.internal.Suggestions.nearest(id, registry.ids());
        throw new InvalidExecutionPolicyPropertyException(null, "zeocore.faults.targets." + id, null, null,
            "no registered target has the id '" + id + "'" + (nearest != null ? "; did you mean '" + nearest + "'?" : "")
            + " (registered: " + registry.ids() + "). Faults are injected into registered targets only");
      }
    }
    List<NamedTarget<?, ?>> targets = new ArrayList<>();
    for (String id : registry.ids()) {
      NamedTarget<?, ?> target = registry.find(id).orElseThrow();
      TargetFault fault = faults.get(id);
      targets.add(fault == null ? target : faulty(target, fault));
    }
    log.warn("ZeoCore fault injection is on for targets {}: injected failures are recorded as ZEO_EXEC_FAULT_INJECTED",
        faults.keySet());
    return TargetRegistry.of(targets);
  }

  private <I, T> NamedTarget<I, T> faulty(NamedTarget<I, T> target, TargetFault fault) {
    String id = target.targetId();
    NamedTarget.Call<I, T> call = (input, context) -> {
      if (strikes(fault)) {
        if (fault.isHang()) {
          published(id, "hang");
          Thread.sleep(context.timeout().toMillis());
          throw new InjectedFault(FailureKind.TIMEOUT, null);
        }
        FailureKind kind = fault.getKind();
        if (kind != null) {
          published(id, kind.wireValue());
          throw new InjectedFault(kind, fault.getRetryAfter());
        }
        Duration latency = fault.getLatency();
        if (latency != null) {
          published(id, "latency");
          Thread.sleep(latency.toMillis());
        }
      }
      return target.call().call(input, context);
    };
    NamedTarget.AsyncCall<I, T> real = target.asyncCall();
    if (real == null) {
      return new NamedTarget<>(id, target.inputType(), target.responseType(), call, target.executionMode());
    }
    NamedTarget.AsyncCall<I, T> async = (input, context) -> faultyAsync(id, fault, real, input, context);
    return NamedTarget.ofAsync(id, target.inputType(), target.responseType(), async)
        .withExecutionMode(target.executionMode());
  }

  private <I, T> CompletionStage<T> faultyAsync(String id, TargetFault fault, NamedTarget.AsyncCall<I, T> real,
      I input, AttemptContext context) throws Exception {
    if (!strikes(fault)) {
      return real.call(input, context);
    }
    if (fault.isHang()) {
      published(id, "hang");
      // fails at nine tenths of the attempt timeout, before the runner's own timer, so that the record says injected
      long millis = context.timeout().toMillis() * 9 / 10;
      CompletableFuture<T> hung = new CompletableFuture<>();
      CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS)
          .execute(() -> hung.completeExceptionally(new InjectedFault(FailureKind.TIMEOUT, null)));
      return hung;
    }
    FailureKind kind = fault.getKind();
    if (kind != null) {
      published(id, kind.wireValue());
      return CompletableFuture.failedFuture(new InjectedFault(kind, fault.getRetryAfter()));
    }
    Duration latency = fault.getLatency();
    if (latency == null) {
      return real.call(input, context);
    }
    published(id, "latency");
    CompletableFuture<@Nullable Void> delay = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(latency.toNanos(), TimeUnit.NANOSECONDS).execute(() -> delay.complete(null));
    return delay.thenCompose(ignored -> {
      try {
        return real.call(input, context);
      } catch (Exception failure) {
        return CompletableFuture.failedFuture(failure);
      }
    });
  }

  private static boolean strikes(TargetFault fault) {
    return fault.getRate() >= 1.0 || ThreadLocalRandom.current().nextDouble() < fault.getRate();
  }

  private void published(String targetId, String fault) {
    log.debug("ZeoCore injected {} into a call of target '{}'", fault, targetId);
    ApplicationEventPublisher publisher = events;
    if (publisher != null) {
      publisher.publishEvent(new FaultInjectedEvent(targetId, fault));
    }
  }
}
