package io.zeocore.autoconfigure.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.ZeoCoreExecutions;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * {@link ZeoCoreTarget @ZeoCoreTarget} bean methods as targets planned by YAML, their async forms, and the
 * {@link ZeoCoreReactiveExecutions Mono entry point}.
 */
class TargetMethodsTests {

  /** An application service declaring its targets on its own methods, and running policies itself. */
  static class Inventory {

    final ZeoCoreExecutions executions;
    final CountDownLatch monoSubscribed = new CountDownLatch(1);
    final CountDownLatch monoCancelled = new CountDownLatch(1);
    final CountDownLatch blockingEntered = new CountDownLatch(1);
    final CountDownLatch blockingInterrupted = new CountDownLatch(1);

    Inventory(ZeoCoreExecutions executions) {
      this.executions = executions;
    }

    @ZeoCoreTarget("inventory")
    String lookUp(String sku) throws ConnectException {
      if (sku.startsWith("unreachable")) {
        throw new ConnectException("refused");
      }
      return "in stock: " + sku;
    }

    @ZeoCoreTarget("inventory-cache")
    private String cached(AttemptContext attempt, String sku) {
      return "cached " + sku + " (attempt " + attempt.attemptNumber() + ")";
    }

    @ZeoCoreTarget("stock-count")
    int count(String sku) {
      return sku.length();
    }

    @ZeoCoreTarget("hanging-mono")
    Mono<String> hanging(String sku) {
      return Mono.<String>never()
          .doOnSubscribe(subscription -> monoSubscribed.countDown())
          .doOnCancel(monoCancelled::countDown);
    }

    @ZeoCoreTarget("quick-mono")
    Mono<String> quick(String sku) {
      return Mono.just("mono " + sku);
    }

    @ZeoCoreTarget("quick-stage")
    CompletionStage<String> stage(String sku) {
      return CompletableFuture.supplyAsync(() -> "stage " + sku);
    }

    @ZeoCoreTarget("blocking")
    String blocking(String sku) throws InterruptedException {
      blockingEntered.countDown();
      try {
        Thread.sleep(60_000);
        return "slept";
      } catch (InterruptedException interrupted) {
        blockingInterrupted.countDown();
        throw interrupted;
      }
    }

    String availability(String sku) {
      return executions.run("availability", sku, String.class).valueIfSucceeded().orElse("unknown");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Application {

    @Bean
    Inventory inventory(ZeoCoreExecutions executions) {
      return new Inventory(executions);
    }
  }

  private final ApplicationContextRunner contexts = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class))
      .withUserConfiguration(Application.class, RecordingListener.class)
      .withPropertyValues(
          "zeocore.execution.configs.default.total-timeout=60s",
          "zeocore.execution.configs.default.attempt-timeout=30s",
          "zeocore.execution.policies.availability.attempt-targets=inventory,inventory-cache",
          "zeocore.execution.policies.count.attempt-targets=stock-count",
          "zeocore.execution.policies.mono-fallback.attempt-targets=hanging-mono,quick-mono",
          "zeocore.execution.policies.mono-fallback.attempt-timeout=300ms",
          "zeocore.execution.policies.mono-then-sync.attempt-targets=hanging-mono,inventory-cache",
          "zeocore.execution.policies.mono-then-sync.attempt-timeout=300ms",
          "zeocore.execution.policies.stage.attempt-targets=quick-stage",
          "zeocore.execution.policies.hanging.attempt-targets=hanging-mono",
          "zeocore.execution.policies.blocking.attempt-targets=blocking");

  @Test
  void anAnnotatedBeanMethodIsATargetPlannedByYamlWithItsFallback() {
    contexts.run(context -> {
      Inventory inventory = context.getBean(Inventory.class);

      assertThat(inventory.availability("sku-1")).isEqualTo("in stock: sku-1");
      assertThat(inventory.availability("unreachable-sku")).isEqualTo("cached unreachable-sku (attempt 2)");
      ResilientExecutionResult<String> fellBack = context.getBean(ZeoCoreExecutions.class)
          .run("availability", "unreachable-sku", String.class);
      assertThat(fellBack.attempts()).extracting(AttemptRecord::failureKind)
          .containsExactly(FailureKind.TRANSIENT, null);
      assertThat(context.getBean(TargetRegistry.class).ids()).contains("inventory", "inventory-cache", "hanging-mono");
      assertThat(context.getBean(TargetRegistry.class).find("stock-count").orElseThrow().responseType())
          .isEqualTo(Integer.class);
      assertThat(context.getBean(ZeoCoreExecutions.class).run("count", "abc", Integer.class).value()).isEqualTo(3);
    });
  }

  @Test
  void anAsyncMonoTargetIsCancelledAtItsAttemptTimeoutAndThePlanFallsBack() {
    contexts.run(context -> {
      Inventory inventory = context.getBean(Inventory.class);
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      // an all-async plan runs on the async runner; a mixed one on the caller's thread: enforced either way
      ResilientExecutionResult<String> async = context.getBean(ZeoCoreReactiveExecutions.class)
          .runMono("mono-fallback", "sku-2", String.class).block(Duration.ofSeconds(30));
      ResilientExecutionResult<String> sync = executions.run("mono-then-sync", "sku-3", String.class);

      assertThat(async.value()).isEqualTo("mono sku-2");
      assertThat(sync.value()).isEqualTo("cached sku-3 (attempt 2)");
      for (ResilientExecutionResult<String> result : java.util.List.of(async, sync)) {
        assertThat(result.attempts()).extracting(AttemptRecord::failureKind)
            .containsExactly(FailureKind.TIMEOUT, null);
        assertThat(result.attempts().get(0).duration()).isGreaterThanOrEqualTo(Duration.ofMillis(290))
            .isLessThan(Duration.ofSeconds(15));
      }
      assertThat(inventory.monoCancelled.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(executions.run("stage", "sku-4", String.class).value()).isEqualTo("stage sku-4");
    });
  }

  @Test
  void theMonoEntryPointEmitsTheRunsEvidence() {
    contexts.run(context -> {
      Mono<ResilientExecutionResult<String>> run = context.getBean(ZeoCoreReactiveExecutions.class)
          .runMono("availability", "unreachable-sku", String.class);
      RecordingListener events = context.getBean(RecordingListener.class);

      assertThat(events.events).isEmpty(); // lazy: nothing runs before the subscription
      ResilientExecutionResult<String> result = run.block(Duration.ofSeconds(30));

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(result.value()).isEqualTo("cached unreachable-sku (attempt 2)");
      assertThat(events.events).filteredOn(ExecutionCompletedEvent.class::isInstance).hasSize(1);
    });
  }

  @Test
  void cancellingTheMonoOfAnAsyncPlanCancelsTheTargetsSubscriptionAndTheRun() {
    contexts.run(context -> {
      Inventory inventory = context.getBean(Inventory.class);
      java.util.List<Object> emitted = new java.util.concurrent.CopyOnWriteArrayList<>();
      Disposable subscription = context.getBean(ZeoCoreReactiveExecutions.class)
          .runMono("hanging", "sku-5", String.class).subscribe(emitted::add, emitted::add);
      assertThat(inventory.monoSubscribed.await(10, TimeUnit.SECONDS)).isTrue();

      subscription.dispose();

      // the attempt in flight (30 s timeout) is cancelled at once: the target's own subscription is disposed
      assertThat(inventory.monoCancelled.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(emitted).isEmpty();
    });
  }

  @Test
  void cancellingTheMonoOfASyncPlanInterruptsItsThreadAndCancelsTheRun() {
    contexts.run(context -> {
      Inventory inventory = context.getBean(Inventory.class);
      Disposable subscription = context.getBean(ZeoCoreReactiveExecutions.class)
          .runMono("blocking", "sku-6", String.class).subscribe();
      assertThat(inventory.blockingEntered.await(10, TimeUnit.SECONDS)).isTrue();

      subscription.dispose();

      assertThat(inventory.blockingInterrupted.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(completed(context.getBean(RecordingListener.class)).outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    });
  }

  private static ExecutionCompletedEvent completed(RecordingListener listener) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < until) {
      for (Object event : listener.events) {
        if (event instanceof ExecutionCompletedEvent completed) {
          return completed;
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no run completed");
  }

  static class TwoInputs {
    @ZeoCoreTarget("two")
    String two(String a, String b) {
      return a + b;
    }
  }

  static class SameId {
    @ZeoCoreTarget("inventory")
    String again(String sku) {
      return sku;
    }
  }

  @Test
  void aMethodOfAnotherShapeOrATargetIdDeclaredTwiceStopsStartUpNamingTheMethod() {
    contexts.withBean(TwoInputs.class).run(context -> assertThat(context).hasFailed().getFailure()
        .hasStackTraceContaining("TwoInputs.two must take exactly one input parameter"));
    contexts.withBean(SameId.class).run(context -> assertThat(context).hasFailed().getFailure()
        .hasStackTraceContaining("@ZeoCoreTarget(\"inventory\") is declared twice"));
  }

  @Test
  void aTargetMethodIsANamedTargetBeanOfItsTypes() {
    contexts.run(context -> assertThat(context.getBeanProvider(
        org.springframework.core.ResolvableType.forClassWithGenerics(NamedTarget.class, String.class, String.class))
        .stream().map(target -> ((NamedTarget<?, ?>) target).targetId()))
        .contains("inventory", "inventory-cache", "hanging-mono", "quick-stage"));
  }
}
