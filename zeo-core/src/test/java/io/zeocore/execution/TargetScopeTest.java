package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TargetScopeTest {

  private final List<String> events = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void tearDown() {
    scheduler.shutdownNow();
  }

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(5))
        .attemptTimeout(Duration.ofSeconds(2)).attemptTargets(plan);
  }

  /** Records where and when its scope opens and closes, as "name:open:thread" / "name:close:thread". */
  private AttemptListener scoped(String name) {
    return new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
        events.add(name + ":finished");
      }

      @Override
      public TargetScope targetScope(ExecutionPolicy policy, AttemptContext context) {
        events.add(name + ":open:" + Thread.currentThread().getName());
        return () -> events.add(name + ":close:" + Thread.currentThread().getName());
      }
    };
  }

  private SyncExecutionTarget<String> recording(String id) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      events.add("call:" + Thread.currentThread().getName());
      return "ok";
    });
  }

  @Test
  void aSyncTargetIsCalledInsideEveryScopeOpenedInOrderAndClosedInReverseOnTheCallingThread() {
    ResilientRunner runner = ResilientRunner.builder().listener(scoped("a")).listener(scoped("b")).build();
    String thread = Thread.currentThread().getName();

    runner.runSync(policy("primary").build(), Map.of("primary", recording("primary")));

    assertThat(events).containsExactly("a:open:" + thread, "b:open:" + thread, "call:" + thread,
        "b:close:" + thread, "a:close:" + thread, "a:finished", "b:finished");
  }

  @Test
  void anEnforcedDeadlineOpensTheScopeOnTheWorkerThatCallsTheTarget() {
    ResilientRunner runner = ResilientRunner.builder().listener(scoped("a")).build();

    runner.runSync(policy("primary").deadline(DeadlineMode.ENFORCED).build(),
        Map.of("primary", recording("primary")));

    String worker = events.get(1).substring("call:".length());
    assertThat(worker).isNotEqualTo(Thread.currentThread().getName());
    assertThat(events).containsExactly("a:open:" + worker, "call:" + worker, "a:close:" + worker, "a:finished");
  }

  @Test
  void anAsyncTargetsInvokeRunsInsideTheScopeWhichClosesBeforeTheStageCompletes() {
    ResilientRunner runner = ResilientRunner.builder().scheduler(scheduler).listener(scoped("a")).build();
    CompletableFuture<String> answer = new CompletableFuture<>();
    AsyncExecutionTarget<String> target = AsyncExecutionTarget.of("primary", String.class, context -> {
      events.add("invoke");
      return answer;
    });

    CompletableFuture<ResilientExecutionResult<String>> run = runner.runAsync(policy("primary").build(),
        Map.of("primary", target));
    String thread = Thread.currentThread().getName();
    assertThat(events).containsExactly("a:open:" + thread, "invoke", "a:close:" + thread);
    answer.complete("late");

    assertThat(run.join().outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(events).endsWith("a:finished");
  }

  @Test
  void aListenerThatThrowsOpeningOrClosingItsScopeChangesNothing() {
    AttemptListener opening = new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {}

      @Override
      public TargetScope targetScope(ExecutionPolicy policy, AttemptContext context) {
        throw new IllegalStateException("opening");
      }
    };
    AttemptListener closing = new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {}

      @Override
      public TargetScope targetScope(ExecutionPolicy policy, AttemptContext context) {
        return () -> {
          throw new IllegalStateException("closing");
        };
      }
    };
    ResilientRunner runner = ResilientRunner.builder().listener(opening).listener(closing).listener(scoped("c"))
        .build();

    ResilientExecutionResult<String> result = runner.runSync(policy("primary").build(),
        Map.of("primary", recording("primary")));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(events).contains("c:open:" + Thread.currentThread().getName(),
        "c:close:" + Thread.currentThread().getName());
  }

  @Test
  void everyListenerOfARunGetsTheSameExecutionIdAndEveryRunItsOwn() {
    Map<String, Set<String>> idsByRun = new ConcurrentHashMap<>();
    AttemptListener first = idCollector("first", idsByRun);
    AttemptListener second = idCollector("second", idsByRun);
    ResilientRunner runner = ResilientRunner.builder().listener(first).listener(second).build();

    for (int i = 0; i < 3; i++) {
      runner.runSync(policy("primary").build(), Map.of("primary", recording("primary")));
    }

    assertThat(idsByRun.get("first")).hasSize(3).isEqualTo(idsByRun.get("second"));
    assertThat(idsByRun.get("first")).allSatisfy(id -> assertThat(
        java.util.UUID.fromString(id.substring("exec-".length())).version()).isEqualTo(4));
  }

  private static AttemptListener idCollector(String name, Map<String, Set<String>> idsByRun) {
    return new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {}

      @Override
      public AttemptListener forRun(ExecutionPolicy policy, String executionId) {
        idsByRun.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(executionId);
        return this;
      }
    };
  }
}
