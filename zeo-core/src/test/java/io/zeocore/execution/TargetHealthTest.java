package io.zeocore.execution;

import static io.zeocore.execution.TargetMaps.targets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.execution.TargetHealthStore.CoolingReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Target cooldowns on the runner: skips, probes, rules, the policy opt-out, and two views sharing one store. The
 * clock is manual, so every timing is exact; nothing here sleeps.
 */
class TargetHealthTest {

  private final ManualClock clock = new ManualClock();
  private final List<TargetHealth.Change> changes = new CopyOnWriteArrayList<>();
  private final RecordingAttemptListener listener = new RecordingAttemptListener();

  private TargetHealth.Builder health() {
    return TargetHealth.builder().clock(clock).listener(changes::add);
  }

  private ResilientRunner runner(TargetHealth health) {
    return ResilientRunner.builder().clock(clock).sleeper(clock).jitter(() -> 0.5).listener(listener)
        .targetHealth(health).build();
  }

  private static ExecutionPolicy plan(String... targets) {
    return ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(60)).attemptTimeout(Duration.ofSeconds(10))
        .attemptTargets(targets).name("plan").build();
  }

  /** A target that answers {@code script}'s next step: a value, or an {@link AttemptError} thrown. */
  private final class Scripted {

    final String id;
    final List<Object> script = new ArrayList<>();
    final AtomicInteger calls = new AtomicInteger();
    @Nullable Runnable during;

    Scripted(String id, Object... steps) {
      this.id = id;
      script.addAll(List.of(steps));
    }

    SyncExecutionTarget<String> target() {
      return SyncExecutionTarget.of(id, String.class, context -> {
        int call = calls.getAndIncrement();
        clock.advance(Duration.ofMillis(100));
        if (during != null) {
          during.run();
        }
        Object step = script.get(Math.min(call, script.size() - 1));
        if (step instanceof AttemptError error) {
          throw error;
        }
        return (String) step;
      });
    }
  }

  private static AttemptError rateLimited(Duration retryAfter) {
    return new AttemptError(FailureKind.RATE_LIMIT, true, retryAfter);
  }

  @Test
  void aRetryAfterCoolsItsTargetSoTheNextRunSkipsItAtOnceWithoutATimeoutOrBackoff() {
    TargetHealth health = health().build();
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(30)), "never again");
    Scripted fallback = new Scripted("fallback", "from fallback");
    ResilientRunner runner = runner(health);
    ExecutionPolicy policy = ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(60))
        .attemptTimeout(Duration.ofSeconds(10)).attemptTargets("primary", "fallback").backoff(Duration.ofSeconds(2))
        .name("plan").build();

    ResilientExecutionResult<String> first = runner.runSync(policy, targets(primary.target(), fallback.target()));
    assertThat(first.selectedTargetId()).isEqualTo("fallback");
    assertThat(health.states()).singleElement().satisfies(state -> {
      assertThat(state.targetId()).isEqualTo("primary");
      assertThat(state.status()).isEqualTo(TargetHealth.Status.COOLING);
      assertThat(state.cause()).isEqualTo(FailureKind.RATE_LIMIT);
      assertThat(state.reason()).isEqualTo(CoolingReason.RETRY_AFTER);
    });

    clock.sleeps.clear();
    long before = clock.nanoTime();
    ResilientExecutionResult<String> second = runner.runSync(policy, targets(primary.target(), fallback.target()));
    assertThat(second.value()).isEqualTo("from fallback");
    assertThat(primary.calls).hasValue(1);
    assertThat(clock.sleeps).as("no backoff after a skipped position").isEmpty();
    assertThat(clock.nanoTime() - before).as("only the fallback's own 100 ms").isEqualTo(100_000_000L);
    AttemptRecord skipped = second.attempts().get(0);
    assertThat(skipped.outcome()).isEqualTo(AttemptOutcome.SKIPPED);
    assertThat(skipped.machineCode()).isEqualTo(MachineCodes.TARGET_COOLING);
    assertThat(skipped.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(skipped.dispatchStarted()).isFalse();
    assertThat(skipped.timeout()).isZero();
    assertThat(skipped.duration()).isZero();
    assertThat(skipped.backoffBeforeNext()).isZero();
    assertThat(second.attempts().get(1).attemptNumber()).isEqualTo(2);
    assertThat(listener.attempts).contains(skipped);
  }

  @Test
  void aRunWhoseRemainingTargetsAllCoolEndsExhaustedWithTheCoolingCode() {
    TargetHealth health = health().build();
    Scripted only = new Scripted("only", rateLimited(Duration.ofSeconds(5)));
    ResilientRunner runner = runner(health);
    runner.runSync(plan("only"), targets(only.target()));

    ResilientExecutionResult<String> skipped = runner.runSync(plan("only", "only"), targets(only.target()));
    assertThat(skipped.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(skipped.machineCode()).isEqualTo(MachineCodes.TARGET_COOLING);
    assertThat(skipped.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(skipped.attempts()).extracting(AttemptRecord::outcome)
        .containsExactly(AttemptOutcome.SKIPPED, AttemptOutcome.SKIPPED);
    assertThat(skipped.attempts()).extracting(AttemptRecord::attemptNumber).containsExactly(1, 2);
    assertThat(only.calls).hasValue(1);
  }

  @Test
  void whenTheCooldownEndsOneRunProbesAndItsAnswerReopensTheTarget() {
    TargetHealth health = health().build();
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)), "answer");
    Scripted fallback = new Scripted("fallback", "fallback answer");
    ResilientRunner runner = runner(health);
    ExecutionPolicy policy = plan("primary", "fallback");
    Map<String, SyncExecutionTarget<String>> targets = targets(primary.target(), fallback.target());
    runner.runSync(policy, targets);
    clock.advance(Duration.ofSeconds(5));
    assertThat(health.states()).extracting(TargetHealth.TargetState::status)
        .containsExactly(TargetHealth.Status.PROBE_DUE);

    // while the probe is in flight, every other run skips the target
    List<ResilientExecutionResult<String>> during = new ArrayList<>();
    primary.during = () -> {
      primary.during = null;
      assertThat(health.states()).extracting(TargetHealth.TargetState::status)
          .containsExactly(TargetHealth.Status.PROBING);
      during.add(runner.runSync(policy, targets));
    };
    ResilientExecutionResult<String> probe = runner.runSync(policy, targets);
    assertThat(probe.selectedTargetId()).isEqualTo("primary");
    assertThat(during).singleElement().satisfies(other -> {
      assertThat(other.selectedTargetId()).isEqualTo("fallback");
      assertThat(other.attempts().get(0).outcome()).isEqualTo(AttemptOutcome.SKIPPED);
    });
    assertThat(health.states()).isEmpty();
    assertThat(runner.runSync(policy, targets).selectedTargetId()).isEqualTo("primary");
    assertThat(primary.calls).hasValue(3);
    assertThat(changes).extracting(TargetHealth.Change::transition).containsExactly(
        TargetHealth.Transition.COOLING_STARTED, TargetHealth.Transition.PROBE_STARTED,
        TargetHealth.Transition.COOLING_ENDED);
    assertThat(changes).noneMatch(TargetHealth.Change::fromStore);
    assertThat(changes.get(0).coolingFor()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aProbeThatIsRateLimitedAgainCoolsTheTargetForTheNewRetryAfter() {
    TargetHealth health = health().build();
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)), rateLimited(Duration.ofSeconds(7)),
        "answer");
    Scripted fallback = new Scripted("fallback", "fallback answer");
    ResilientRunner runner = runner(health);
    Map<String, SyncExecutionTarget<String>> targets = targets(primary.target(), fallback.target());
    runner.runSync(plan("primary", "fallback"), targets);
    clock.advance(Duration.ofSeconds(5));
    runner.runSync(plan("primary", "fallback"), targets); // the probe: 429 again
    assertThat(health.states()).singleElement().satisfies(state -> {
      assertThat(state.status()).isEqualTo(TargetHealth.Status.COOLING);
      assertThat(state.coolingLeft()).isEqualTo(Duration.ofMillis(6_900)); // the fallback's 100 ms since
    });
    clock.advance(Duration.ofSeconds(6));
    assertThat(runner.runSync(plan("primary", "fallback"), targets).attempts().get(0).outcome())
        .isEqualTo(AttemptOutcome.SKIPPED);
    clock.advance(Duration.ofSeconds(1));
    assertThat(runner.runSync(plan("primary", "fallback"), targets).selectedTargetId()).isEqualTo("primary");
    assertThat(primary.calls).hasValue(3);
  }

  @Test
  void aSameTargetRetryThatWaitsOutTheRetryAfterIsTheProbeNotASkip() {
    TargetHealth health = health().build();
    Scripted only = new Scripted("only", rateLimited(Duration.ofSeconds(3)), "answer");
    ResilientExecutionResult<String> result = runner(health).runSync(plan("only", "only"), targets(only.target()));
    assertThat(result.value()).isEqualTo("answer");
    assertThat(clock.totalSlept()).isEqualTo(Duration.ofSeconds(3));
    assertThat(health.states()).isEmpty();
  }

  @Test
  void repeatedFailuresWithinTheWindowCoolTheTargetForTheRulesTime() {
    TargetHealth health = health().cooldown("flaky", TargetCooldown.DEFAULT
        .withFailures(3, Duration.ofSeconds(10), Duration.ofSeconds(20))).build();
    Scripted flaky = new Scripted("flaky", new AttemptError(FailureKind.TIMEOUT));
    Scripted fallback = new Scripted("fallback", "ok");
    ResilientRunner runner = runner(health);
    Map<String, SyncExecutionTarget<String>> targets = targets(flaky.target(), fallback.target());
    ExecutionPolicy policy = plan("flaky", "fallback");

    runner.runSync(policy, targets);
    clock.advance(Duration.ofSeconds(11)); // the first failure leaves the window
    runner.runSync(policy, targets);
    runner.runSync(policy, targets);
    assertThat(health.states()).isEmpty();
    runner.runSync(policy, targets); // three within ten seconds
    assertThat(health.states()).singleElement().satisfies(state -> {
      assertThat(state.reason()).isEqualTo(CoolingReason.REPEATED_FAILURES);
      assertThat(state.cause()).isEqualTo(FailureKind.TIMEOUT);
      assertThat(state.coolingLeft()).isEqualTo(Duration.ofMillis(19_900)); // the fallback's 100 ms since
    });
    assertThat(runner.runSync(policy, targets).attempts().get(0).machineCode())
        .isEqualTo(MachineCodes.TARGET_COOLING);
    assertThat(flaky.calls).hasValue(4);

    // a permanent failure does not count; one probe reopens the target
    flaky.script.set(0, "recovered");
    clock.advance(Duration.ofSeconds(20));
    assertThat(runner.runSync(policy, targets).selectedTargetId()).isEqualTo("flaky");
    assertThat(health.states()).isEmpty();
  }

  @Test
  void aProbeThatTimesOutCoolsTheTargetAgainForTheFailureCooldown() {
    TargetHealth health = health().cooldown("flaky", TargetCooldown.DEFAULT
        .withFailures(1, Duration.ofSeconds(10), Duration.ofSeconds(20))).build();
    Scripted flaky = new Scripted("flaky", new AttemptError(FailureKind.TIMEOUT));
    Scripted fallback = new Scripted("fallback", "ok");
    ResilientRunner runner = runner(health);
    Map<String, SyncExecutionTarget<String>> targets = targets(flaky.target(), fallback.target());
    runner.runSync(plan("flaky", "fallback"), targets);
    clock.advance(Duration.ofSeconds(20));
    runner.runSync(plan("flaky", "fallback"), targets);
    assertThat(health.states()).singleElement()
        .satisfies(state -> assertThat(state.coolingLeft()).isEqualTo(Duration.ofMillis(19_900)));
    assertThat(flaky.calls).hasValue(2);
  }

  @Test
  void aProbeThatFailsForTheRequestsOwnFaultReopensTheTarget() {
    TargetHealth health = health().build();
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)),
        new AttemptError(FailureKind.VALIDATION));
    ResilientRunner runner = runner(health);
    runner.runSync(plan("primary"), targets(primary.target()));
    clock.advance(Duration.ofSeconds(5));
    assertThat(runner.runSync(plan("primary"), targets(primary.target())).outcome())
        .isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(health.states()).isEmpty();
  }

  @Test
  void aCancelledProbeGivesItsLeaseBackForTheNextRun() {
    TargetHealth health = health().build();
    SettableCancellationToken token = new SettableCancellationToken();
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)), "answer");
    ResilientRunner runner = runner(health);
    runner.runSync(plan("primary"), targets(primary.target()));
    clock.advance(Duration.ofSeconds(5));
    SyncExecutionTarget<String> cancelling = SyncExecutionTarget.of("primary", String.class, context -> {
      token.cancel();
      throw new java.util.concurrent.CancellationException();
    });
    assertThat(runner.runSync(plan("primary"), targets(cancelling), token).outcome())
        .isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(health.states()).extracting(TargetHealth.TargetState::status)
        .containsExactly(TargetHealth.Status.PROBE_DUE);
    assertThat(runner.runSync(plan("primary"), targets(primary.target())).value()).isEqualTo("answer");
  }

  @Test
  void retryAfterIsCappedByTheRuleAndIgnoredWhenTheRuleIsOff() {
    TargetHealth health = health().defaultCooldown(TargetCooldown.DEFAULT.withMaxRetryAfter(Duration.ofSeconds(4)))
        .cooldown("free", TargetCooldown.OFF).build();
    ResilientRunner runner = runner(health);
    runner.runSync(plan("capped"), targets(new Scripted("capped", rateLimited(Duration.ofHours(1))).target()));
    runner.runSync(plan("free"), targets(new Scripted("free", rateLimited(Duration.ofHours(1))).target()));
    assertThat(health.states()).singleElement().satisfies(state -> {
      assertThat(state.targetId()).isEqualTo("capped");
      assertThat(state.coolingLeft()).isEqualTo(Duration.ofMillis(3_900)); // the other run's 100 ms since
    });
  }

  @Test
  void aPolicyThatIgnoresCooldownsCallsACoolingTargetAndItsAnswerReopensIt() {
    TargetHealth health = health().build();
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(30)), "healthy");
    ResilientRunner runner = runner(health);
    runner.runSync(plan("primary"), targets(primary.target()));
    ExecutionPolicy check = plan("primary").toBuilder().name("health-check").ignoreCooldowns(true).build();
    assertThat(check.ignoreCooldowns()).isTrue();
    assertThat(runner.runSync(check, targets(primary.target())).value()).isEqualTo("healthy");
    assertThat(health.states()).isEmpty();
    assertThat(changes).extracting(TargetHealth.Change::transition)
        .containsExactly(TargetHealth.Transition.COOLING_STARTED, TargetHealth.Transition.COOLING_ENDED);
  }

  @Test
  void anAsyncRunSkipsACoolingTargetWithoutSchedulingATimer() throws Exception {
    TargetHealth health = health().build();
    ResilientRunner runner = runner(health);
    runner.runSync(plan("primary"), targets(new Scripted("primary", rateLimited(Duration.ofSeconds(30))).target()));
    AtomicInteger primaryCalls = new AtomicInteger();
    ResilientExecutionResult<String> result = runner.runAsync(plan("primary", "fallback"), targets(
            AsyncExecutionTarget.of("primary", String.class, context -> {
              primaryCalls.incrementAndGet();
              return CompletableFuture.completedFuture("no");
            }),
            AsyncExecutionTarget.of("fallback", String.class, context -> CompletableFuture.completedFuture("yes"))))
        .get(10, TimeUnit.SECONDS);
    assertThat(result.value()).isEqualTo("yes");
    assertThat(primaryCalls).hasValue(0);
    assertThat(result.attempts()).extracting(AttemptRecord::outcome)
        .containsExactly(AttemptOutcome.SKIPPED, AttemptOutcome.SUCCEEDED);
  }

  @Test
  void twoViewsOnOneSharedStoreSkipTogetherAndHandTheProbeToOnlyOne() {
    InMemoryTargetHealthStore memory = new InMemoryTargetHealthStore(clock);
    SharedStore shared = new SharedStore(memory);
    try (TargetHealth a = health().store(shared).instanceId("a").refreshInterval(Duration.ofHours(1)).build();
        TargetHealth b = health().store(shared).instanceId("b").refreshInterval(Duration.ofHours(1)).build()) {
      Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)), "answer");
      Scripted fallback = new Scripted("fallback", "fallback answer");
      Map<String, SyncExecutionTarget<String>> targets = targets(primary.target(), fallback.target());
      runner(a).runSync(plan("primary", "fallback"), targets);
      a.awaitWrites();
      assertThat(b.states()).as("not read yet").isEmpty();
      b.refresh();
      assertThat(b.states()).singleElement().satisfies(state -> assertThat(state.coolingLeft())
          .isBetween(Duration.ofMillis(4_900), Duration.ofSeconds(5))); // written before or after the fallback ran
      assertThat(runner(b).runSync(plan("primary", "fallback"), targets).attempts().get(0).outcome())
          .isEqualTo(AttemptOutcome.SKIPPED);

      clock.advance(Duration.ofSeconds(5));
      primary.during = () -> {
        primary.during = null;
        // b asks while a probes: the store hands the lease to one holder only
        assertThat(runner(b).runSync(plan("primary", "fallback"), targets).attempts().get(0).outcome())
            .isEqualTo(AttemptOutcome.SKIPPED);
      };
      assertThat(runner(a).runSync(plan("primary", "fallback"), targets).selectedTargetId()).isEqualTo("primary");
      assertThat(primary.calls).hasValue(2);
      a.awaitWrites();
      assertThat(memory.read()).isEmpty();
      b.refresh();
      assertThat(b.states()).isEmpty();
      assertThat(changes).filteredOn(TargetHealth.Change::fromStore)
          .extracting(TargetHealth.Change::transition)
          .containsExactly(TargetHealth.Transition.COOLING_STARTED, TargetHealth.Transition.COOLING_ENDED);
    }
  }

  @Test
  void aRefreshThatReadTheStoreBeforeAProbeAnsweredDoesNotBringTheTargetBack() throws Exception {
    InMemoryTargetHealthStore memory = new InMemoryTargetHealthStore(clock);
    SharedStore shared = new SharedStore(memory);
    try (TargetHealth health = health().store(shared).refreshInterval(Duration.ofHours(1)).build()) {
      Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)), "answer");
      Scripted fallback = new Scripted("fallback", "fallback answer");
      Map<String, SyncExecutionTarget<String>> targets = targets(primary.target(), fallback.target());
      ResilientRunner runner = runner(health);
      runner.runSync(plan("primary", "fallback"), targets);
      health.awaitWrites();
      clock.advance(Duration.ofSeconds(6));

      // a refresh reads the store (the row is still there) while the probe answers and reopens the target
      java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
      shared.duringRead = () -> {
        reading.countDown();
        try {
          answered.await(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };
      List<TargetHealthStore.Entry> stale = memory.read();
      assertThat(stale).hasSize(1);
      Thread refresher = new Thread(health::refresh);
      refresher.start();
      assertThat(reading.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      shared.readResult = stale;
      assertThat(runner.runSync(plan("primary", "fallback"), targets).selectedTargetId()).isEqualTo("primary");
      answered.countDown();
      refresher.join(30_000);

      assertThat(health.states()).as("the stale read does not undo the reopening").isEmpty();
      shared.duringRead = null;
      shared.readResult = null;
      health.awaitWrites();
      health.refresh();
      assertThat(health.states()).isEmpty();
      assertThat(memory.read()).isEmpty();
    }
  }

  @Test
  void aNewViewHonoursTheCooldownsAlreadyInTheStore() {
    InMemoryTargetHealthStore memory = new InMemoryTargetHealthStore(clock);
    memory.coolDown("primary", Duration.ofSeconds(9), FailureKind.RATE_LIMIT, CoolingReason.RETRY_AFTER);
    try (TargetHealth restarted = health().store(new SharedStore(memory)).refreshInterval(Duration.ofHours(1))
        .build()) {
      assertThat(restarted.states()).extracting(TargetHealth.TargetState::coolingLeft)
          .containsExactly(Duration.ofSeconds(9));
    }
  }

  @Test
  void aFailingStoreNeverFailsARunAndTheViewKeepsWhatItKnew() {
    SharedStore failing = new SharedStore(new InMemoryTargetHealthStore(clock));
    failing.fail = true;
    try (TargetHealth health = health().store(failing).refreshInterval(Duration.ofHours(1)).build()) {
      Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)), "answer");
      Scripted fallback = new Scripted("fallback", "fallback answer");
      ResilientRunner runner = runner(health);
      Map<String, SyncExecutionTarget<String>> targets = targets(primary.target(), fallback.target());
      runner.runSync(plan("primary", "fallback"), targets);
      health.refresh();
      assertThat(runner.runSync(plan("primary", "fallback"), targets).attempts().get(0).outcome())
          .isEqualTo(AttemptOutcome.SKIPPED);
      clock.advance(Duration.ofSeconds(5));
      // no lease can be taken while the store fails: the target stays skipped rather than probed by everyone
      assertThat(runner.runSync(plan("primary", "fallback"), targets).selectedTargetId()).isEqualTo("fallback");
      failing.fail = false;
      clock.advance(Duration.ofHours(2));
      assertThat(runner.runSync(plan("primary", "fallback"), targets).selectedTargetId()).isEqualTo("primary");
    }
  }

  @Test
  void aListenerThatThrowsChangesNothing() {
    TargetHealth health = TargetHealth.builder().clock(clock).listener(change -> {
      throw new IllegalStateException("listener");
    }).build();
    runner(health).runSync(plan("primary"), targets(new Scripted("primary", rateLimited(Duration.ofSeconds(5)))
        .target()));
    assertThat(health.states()).hasSize(1);
  }

  @Test
  void aRunnerWithoutTargetHealthCallsEveryPlannedTarget() {
    Scripted primary = new Scripted("primary", rateLimited(Duration.ofSeconds(5)));
    ResilientRunner runner = ResilientRunner.builder().clock(clock).sleeper(clock).build();
    runner.runSync(plan("primary"), targets(primary.target()));
    runner.runSync(plan("primary"), targets(primary.target()));
    assertThat(primary.calls).hasValue(2);
    assertThat(runner.targetHealth()).isEmpty();
  }

  @Test
  void refusesRulesThatCountKindsWhichSayNothingAboutATarget() {
    assertThatThrownBy(() -> TargetCooldown.DEFAULT.withFailures(3, Duration.ofSeconds(1), Duration.ofSeconds(1),
        FailureKind.VALIDATION)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot count validation");
    assertThatThrownBy(() -> TargetCooldown.DEFAULT.withFailures(-1, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .hasMessageContaining("failureThreshold");
    assertThatThrownBy(() -> TargetCooldown.DEFAULT.withMaxRetryAfter(Duration.ZERO))
        .hasMessageContaining("maxRetryAfter must be greater than 0");
    assertThat(TargetCooldown.OFF.enabled()).isFalse();
    assertThat(TargetCooldown.DEFAULT.enabled()).isTrue();
  }

  @Test
  void aSkippedRecordMustSayItDispatchedNothing() {
    assertThatThrownBy(() -> new AttemptRecord(1, "t", ExecutionMode.LIVE, Duration.ZERO, Duration.ZERO,
        Duration.ZERO, true, AttemptOutcome.SKIPPED, FailureKind.RATE_LIMIT, MachineCodes.TARGET_COOLING,
        Duration.ZERO)).hasMessageContaining("dispatchStarted=false");
  }

  /** An in-memory store that says it is shared, so that its views refresh and write in the background. */
  static final class SharedStore implements TargetHealthStore {

    final InMemoryTargetHealthStore delegate;
    volatile boolean fail;
    /** Runs inside {@link #read()} before it answers, when set. */
    volatile @Nullable Runnable duringRead;
    /** What {@link #read()} answers instead of the store's rows, when set (a read made earlier). */
    volatile @Nullable List<Entry> readResult;

    SharedStore(InMemoryTargetHealthStore delegate) {
      this.delegate = delegate;
    }

    private void check() {
      if (fail) {
        throw new IllegalStateException("store down");
      }
    }

    @Override
    public List<Entry> read() {
      check();
      List<Entry> rows = delegate.read();
      Runnable during = duringRead;
      if (during != null) {
        during.run();
      }
      List<Entry> instead = readResult;
      return instead != null ? instead : rows;
    }

    @Override
    public void coolDown(String targetId, Duration coolFor, FailureKind cause, CoolingReason reason) {
      check();
      delegate.coolDown(targetId, coolFor, cause, reason);
    }

    @Override
    public boolean tryProbe(String targetId, String holder, Duration lease) {
      check();
      return delegate.tryProbe(targetId, holder, lease);
    }

    @Override
    public void reopen(String targetId, @Nullable String holder) {
      check();
      delegate.reopen(targetId, holder);
    }

    @Override
    public void releaseProbe(String targetId, String holder) {
      check();
      delegate.releaseProbe(targetId, holder);
    }
  }
}
