package io.zeocore.test;

import static io.zeocore.test.ZeoCoreAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.StreamEvidence;
import io.zeocore.execution.StreamExecution;
import io.zeocore.execution.TargetHealth;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/**
 * Plans under virtual time: sync, async and streamed runs, backoff, attempt and total deadlines and cooldowns, each
 * with the records and outcome real time would give, in milliseconds of real time.
 */
class VirtualTimeRunsTest {

  private final VirtualTime time = new VirtualTime();
  private final ResilientRunner runner = ResilientRunner.builder().timeSource(time).jitter(() -> 0.5).build();

  /** Ten seconds of backoff under a thirty-second deadline. */
  private static final ExecutionPolicy PATIENT = ExecutionPolicy.builder().name("patient")
      .totalTimeout(Duration.ofSeconds(30)).attemptTimeout(Duration.ofSeconds(8))
      .attemptTargets("primary", "primary", "fallback")
      .backoff(Duration.ofSeconds(4), Duration.ofSeconds(6)).build();

  @Test
  void aPlanWithTenSecondsOfBackoffAndAThirtySecondDeadlineRunsInMilliseconds() {
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time)
        .hangs()
        .failsWith(FailureKind.TRANSIENT);
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time)
        .answersAfter(Duration.ofSeconds(3), "from fallback");
    long realStart = System.nanoTime();

    ResilientExecutionResult<String> result = runner.runSync(PATIENT,
        Map.of("primary", primary.sync(), "fallback", fallback.sync()));

    Duration real = Duration.ofNanos(System.nanoTime() - realStart);
    assertThat(result).answeredBy("fallback").hasValue("from fallback")
        .tookPath("primary:timeout", "primary:transient", "fallback:succeeded")
        .waited(Duration.ofSeconds(4), Duration.ofSeconds(6))
        .tookExactly(Duration.ofSeconds(8 + 4 + 6 + 3));
    assertThat(result).attempt(1).lasted(Duration.ofSeconds(8)).hadTimeout(Duration.ofSeconds(8));
    assertThat(result).attempt(3).startedAfter(Duration.ofSeconds(18)).hadTimeout(Duration.ofSeconds(8));
    // the plan waits 21 s of virtual time; on a loaded machine the first run still takes only milliseconds of real
    // time (surefire reports this test's time), so the bound here is generous: no real waiting happened
    assertThat(real).as("real time spent").isLessThan(Duration.ofSeconds(3));
  }

  @Test
  void theTotalDeadlineEndsAPlanInVirtualTimeExactlyAsInRealTime() {
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time).hangs();
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time).hangs();

    ResilientExecutionResult<String> result = runner.runSync(PATIENT,
        Map.of("primary", primary.sync(), "fallback", fallback.sync()));

    // 8 s + 4 s + 8 s + 6 s = 26 s: the fallback gets what is left, 4 s
    assertThat(result).hasOutcome(ExecutionOutcome.EXHAUSTED).hasFailureKind(FailureKind.TIMEOUT)
        .tookPath("primary:timeout", "primary:timeout", "fallback:timeout")
        .tookExactly(Duration.ofSeconds(30));
    assertThat(result).attempt(3).hadTimeout(Duration.ofSeconds(4));
  }

  @Test
  void anAsyncRunIsDrivenToItsEndByAwait() {
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time).hangs().rateLimited(
        Duration.ofSeconds(7));
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time)
        .answersAfter(Duration.ofMillis(1500), "async answer");

    CompletableFuture<ResilientExecutionResult<String>> run = runner.runAsync(PATIENT,
        Map.of("primary", primary.async(), "fallback", fallback.async()));
    ResilientExecutionResult<String> result = time.await(run);

    // the hang is ended by the runner's own attempt timer; the Retry-After of 7 s outweighs the 6 s backoff
    assertThat(result).answeredBy("fallback").tookPath("primary:timeout", "primary:rate_limit", "fallback:succeeded")
        .waited(Duration.ofSeconds(4), Duration.ofSeconds(7))
        .tookExactly(Duration.ofMillis(8_000 + 4_000 + 7_000 + 1_500));
    assertThat(time.elapsed()).isEqualTo(Duration.ofMillis(20_500));
  }

  @Test
  void aStreamedRunTimesItsFirstChunkOnVirtualTime() {
    ExecutionPolicy policy = ExecutionPolicy.builder().name("stream").totalTimeout(Duration.ofSeconds(30))
        .attemptTimeout(Duration.ofSeconds(20)).firstChunkTimeout(Duration.ofSeconds(2))
        .attemptTargets("primary", "fallback").build();
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time)
        .answersAfter(Duration.ofSeconds(5), "too late");
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time)
        .answersAfter(Duration.ofMillis(500), "in time");

    StreamExecution<String> run = runner.runStream(policy,
        Map.of("primary", primary.stream(), "fallback", fallback.stream()));
    java.util.List<String> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();
    run.subscribe(new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(String chunk) {
        chunks.add(chunk);
      }

      @Override
      public void onError(Throwable throwable) {}

      @Override
      public void onComplete() {}
    });
    ResilientExecutionResult<StreamEvidence> result = time.await(run.result());

    assertThat(chunks).containsExactly("in time");
    assertThat(result).answeredBy("fallback").tookPath("primary:timeout", "fallback:succeeded")
        .tookExactly(Duration.ofMillis(2_500));
  }

  @Test
  void aCooldownEndsOnVirtualTime() {
    TargetHealth health = TargetHealth.builder().clock(time).build();
    ResilientRunner cooling = runner.toBuilder().targetHealth(health).build();
    ExecutionPolicy policy = ExecutionPolicy.builder().name("cooling").totalTimeout(Duration.ofSeconds(30))
        .attemptTimeout(Duration.ofSeconds(5)).attemptTargets("primary", "fallback").build();
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time)
        .rateLimited(Duration.ofSeconds(30)).answers("recovered");
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time).answers("fallback");
    var targets = Map.of("primary", primary.sync(), "fallback", fallback.sync());

    assertThat(cooling.runSync(policy, targets)).answeredBy("fallback").attempt(1).thenWaited(Duration.ZERO);
    assertThat(cooling.runSync(policy, targets)).tookPath("primary:skipped", "fallback:succeeded")
        .attempt(1).wasSkipped().hasMachineCode(MachineCodes.TARGET_COOLING).dispatchStarted(false);
    time.advance(Duration.ofSeconds(30));
    assertThat(cooling.runSync(policy, targets)).answeredBy("primary");
    assertThat(primary.callCount()).isEqualTo(2);
  }

  @Test
  void failureMessagesShowTheRunsWayThroughThePlan() {
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time).failsWith(FailureKind.TIMEOUT);
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time).answers("ok");
    ResilientExecutionResult<String> result = runner.runSync(PATIENT,
        Map.of("primary", primary.sync(), "fallback", fallback.sync()));

    assertThatThrownBy(() -> assertThat(result).answeredBy("primary"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting the run to be answered by 'primary'")
        .hasMessageContaining("the run succeeded, answered by 'fallback'")
        .hasMessageContaining("1. primary: failed timeout, 0 s → 0 s, then waited 4 s")
        .hasMessageContaining("path: primary:timeout → primary:timeout → fallback:succeeded");
    assertThatThrownBy(() -> assertThat(result).attempt(2).wasSkipped())
        .hasMessageContaining("Expecting planned position 2 to be skipped")
        .hasMessageContaining("path: primary:timeout");
    assertThatThrownBy(() -> assertThat(result).attempt(4)).hasMessageContaining("a planned position 4");
  }

  @Test
  void aScriptRepeatsItsLastStepAndSaysWhenItHasNone() {
    ScriptedTarget<String> once = ScriptedTarget.of("once", String.class, time).answers("same");
    ExecutionPolicy single = ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(1))
        .attemptTimeout(Duration.ofSeconds(1)).attemptTargets("once").build();
    runner.runSync(single, Map.of("once", once.sync()));
    assertThat(runner.runSync(single, Map.of("once", once.sync()))).hasValue("same");
    assertThat(once.calls()).hasSize(2).allSatisfy(call -> assertThat(call.targetId()).isEqualTo("once"));

    ScriptedTarget<String> empty = ScriptedTarget.of("empty", String.class, time);
    ExecutionPolicy onEmpty = single.toBuilder().attemptTargets("empty").build();
    assertThat(runner.runSync(onEmpty, Map.of("empty", empty.sync()))).hasFailureKind(FailureKind.PERMANENT);
  }

  @Test
  void virtualTimeRunsScheduledWorkInDueOrderAndNeverGoesBack() throws Exception {
    java.util.List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
    time.scheduler().schedule(() -> ran.add("second"), 2, java.util.concurrent.TimeUnit.SECONDS);
    time.scheduler().schedule(() -> ran.add("first"), 1, java.util.concurrent.TimeUnit.SECONDS);
    var repeating = time.scheduler().scheduleAtFixedRate(() -> ran.add("tick"), 500, 500,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    assertThat(time.pendingTasks()).isEqualTo(3);
    time.advance(Duration.ofMillis(1_999));
    assertThat(ran).containsExactly("tick", "first", "tick", "tick");
    repeating.cancel(false);
    time.advance(Duration.ofMillis(1));
    assertThat(ran).containsExactly("tick", "first", "tick", "tick", "second");
    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> time.advance(Duration.ofMillis(-1))).hasMessageContaining("never goes back");
    assertThat(time.pendingTasks()).isZero();
  }
}
