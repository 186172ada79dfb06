package io.zeocore.execution;

import static io.zeocore.execution.TargetMaps.targets;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResilientRunnerStreamTest {

  private final List<AttemptRecord> heard = new CopyOnWriteArrayList<>();
  private final ResilientRunner runner = ResilientRunner.builder()
      .listener((policy, record) -> heard.add(record))
      .build();

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder()
        .name("chat-stream")
        .totalTimeout(Duration.ofSeconds(20))
        .attemptTimeout(Duration.ofSeconds(10))
        .attemptTargets(plan);
  }

  @SuppressWarnings("unchecked")
  private static StreamExecutionTarget<String> target(String id, ScriptedPublisher publisher) {
    return StreamExecutionTarget.of(id, String.class, context -> (Flow.Publisher<String>) (Flow.Publisher<?>) publisher);
  }

  /** A subscriber that asks for {@code initial} chunks and records everything it hears. */
  static class Collector implements Flow.Subscriber<String> {
    final List<String> chunks = new CopyOnWriteArrayList<>();
    final CountDownLatch ended = new CountDownLatch(1);
    final long initial;
    volatile Flow.Subscription subscription;
    volatile Throwable error;
    volatile boolean completed;

    Collector(long initial) {
      this.initial = initial;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (initial > 0) {
        s.request(initial);
      }
    }

    @Override
    public void onNext(String chunk) {
      chunks.add(chunk);
    }

    @Override
    public void onError(Throwable thrown) {
      error = thrown;
      ended.countDown();
    }

    @Override
    public void onComplete() {
      completed = true;
      ended.countDown();
    }

    Collector await() throws InterruptedException {
      assertThat(ended.await(20, TimeUnit.SECONDS)).as("the stream ended").isTrue();
      return this;
    }

    ExecutionFailedException failedResult() {
      assertThat(error).isInstanceOf(ExecutionFailedException.class);
      return (ExecutionFailedException) error;
    }
  }

  private static ResilientExecutionResult<StreamEvidence> result(StreamExecution<String> run) throws Exception {
    return run.result().get(20, TimeUnit.SECONDS);
  }

  @Test
  void aFailureBeforeTheFirstChunkFallsBackAndTheSubscriberSeesOnlyTheAnswer() throws Exception {
    ScriptedPublisher broken = ScriptedPublisher.of(new AttemptError(FailureKind.TRANSIENT));
    ScriptedPublisher fallback = ScriptedPublisher.of("Hel", "lo", ScriptedPublisher.COMPLETE);
    StreamExecution<String> run = runner.runStream(policy("primary", "fallback").build(),
        targets(target("primary", broken), target("fallback", fallback)));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);

    assertThat(collector.await().completed).isTrue();
    assertThat(collector.chunks).containsExactly("Hel", "lo");
    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    assertThat(result.value().chunks()).isEqualTo(2);
    assertThat(result.value().timeToFirstChunk()).isNotNull();
    assertThat(result.attempts()).extracting(AttemptRecord::failureKind).containsExactly(FailureKind.TRANSIENT, null);
    assertThat(result.attempts().get(0).stream()).isEqualTo(StreamEvidence.NOTHING_DELIVERED);
    assertThat(result.attempts().get(1).stream()).isEqualTo(result.value());
    assertThat(heard).isEqualTo(result.attempts());
  }

  @Test
  void aCoolingTargetIsSkippedBeforeItsPublisherIsEverAskedFor() throws Exception {
    TargetHealth health = TargetHealth.inMemory();
    ResilientRunner cooling = runner.toBuilder().targetHealth(health).build();
    ScriptedPublisher limited = ScriptedPublisher.of(new AttemptError(FailureKind.RATE_LIMIT, true,
        Duration.ofMinutes(1)));
    Collector first = new Collector(Long.MAX_VALUE);
    StreamExecution<String> firstRun = cooling.runStream(policy("primary", "fallback").build(), targets(
        target("primary", limited), target("fallback", ScriptedPublisher.of("a", ScriptedPublisher.COMPLETE))));
    firstRun.subscribe(first);
    assertThat(first.await().chunks).containsExactly("a");

    ScriptedPublisher untouched = ScriptedPublisher.of("never", ScriptedPublisher.COMPLETE);
    StreamExecution<String> run = cooling.runStream(policy("primary", "fallback").build(), targets(
        target("primary", untouched),
        target("fallback", ScriptedPublisher.of("b", ScriptedPublisher.COMPLETE))));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);
    assertThat(collector.await().chunks).containsExactly("b");
    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(untouched.subscriptions).hasValue(0);
    assertThat(result.attempts()).extracting(AttemptRecord::outcome)
        .containsExactly(AttemptOutcome.SKIPPED, AttemptOutcome.SUCCEEDED);
    assertThat(result.attempts().get(0).stream()).isNull();
  }

  @Test
  void nothingRunsUntilTheSubscriberFirstAsks() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    StreamExecution<String> run = runner.runStream(policy("only").build(), targets(
        StreamExecutionTarget.of("only", String.class, context -> {
          calls.incrementAndGet();
          return target("x", ScriptedPublisher.of("a", ScriptedPublisher.COMPLETE)).invocation().invoke(context);
        })));
    Collector lazy = new Collector(0);
    run.subscribe(lazy);
    Thread.sleep(50);
    assertThat(calls).hasValue(0);
    lazy.subscription.request(5);
    assertThat(lazy.await().chunks).containsExactly("a");
    assertThat(calls).hasValue(1);
  }

  @Test
  void aStallBeforeTheFirstChunkHitsTheFirstChunkTimeoutCancelsThePublisherAndFallsBack() throws Exception {
    ScriptedPublisher silent = ScriptedPublisher.of(ScriptedPublisher.HANG);
    ScriptedPublisher fallback = ScriptedPublisher.of("ok", ScriptedPublisher.COMPLETE);
    ExecutionPolicy policy = policy("slow", "fallback").firstChunkTimeout(Duration.ofMillis(200)).build();
    StreamExecution<String> run = runner.runStream(policy, targets(target("slow", silent), target("fallback", fallback)));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);

    assertThat(collector.await().chunks).containsExactly("ok");
    assertThat(silent.wasCancelled()).as("the stalled exchange is closed").isTrue();
    AttemptRecord stalled = result(run).attempts().get(0);
    assertThat(stalled.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(stalled.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(190)).isLessThan(Duration.ofSeconds(9));
    assertThat(stalled.stream().chunks()).isZero();
  }

  @Test
  void aFailureAfterThreeChunksEndsTheStreamInterruptedAndNeverCallsTheFallback() throws Exception {
    ScriptedPublisher cut = ScriptedPublisher.of("one", "two", "three", new AttemptError(FailureKind.TRANSIENT));
    ScriptedPublisher fallback = ScriptedPublisher.of("never", ScriptedPublisher.COMPLETE);
    StreamExecution<String> run = runner.runStream(policy("primary", "fallback").build(),
        targets(target("primary", cut), target("fallback", fallback)));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);

    assertThat(collector.await().chunks).containsExactly("one", "two", "three");
    ExecutionFailedException carried = collector.failedResult();
    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(carried.attempts()).isEqualTo(result.attempts());
    assertThat(carried.executionId()).isEqualTo(result.executionId());
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts()).hasSize(1);
    AttemptRecord interrupted = result.attempts().get(0);
    assertThat(interrupted.machineCode()).isEqualTo(MachineCodes.TRANSIENT);
    assertThat(interrupted.stream().chunks()).isEqualTo(3);
    assertThat(interrupted.stream().partialOutputDelivered()).isTrue();
    assertThat(fallback.subscriptions).as("no second request").hasValue(0);
  }

  @Test
  void anIdleStallMidStreamEndsInterruptedAtTheIdleTimeout() throws Exception {
    ScriptedPublisher stalls = ScriptedPublisher.of("first", ScriptedPublisher.HANG);
    ExecutionPolicy policy = policy("primary", "fallback").chunkIdleTimeout(Duration.ofMillis(250)).build();
    StreamExecution<String> run = runner.runStream(policy,
        targets(target("primary", stalls), target("fallback", ScriptedPublisher.of("x", ScriptedPublisher.COMPLETE))));
    Collector collector = new Collector(Long.MAX_VALUE);
    long started = System.nanoTime();
    run.subscribe(collector);

    collector.await();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(240));
    assertThat(collector.chunks).containsExactly("first");
    ExecutionFailedException result = collector.failedResult();
    assertThat(result.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(stalls.wasCancelled()).isTrue();
  }

  @Test
  void theTotalTimeoutBoundsAStreamThatNeverStopsTalking() throws Exception {
    Object[] endless = new Object[2001];
    for (int i = 0; i < 2000; i++) {
      endless[i] = "chunk";
    }
    endless[2000] = ScriptedPublisher.HANG;
    ScriptedPublisher talker = ScriptedPublisher.of(endless);
    ExecutionPolicy policy = policy("talker").totalTimeout(Duration.ofMillis(400)).build();
    StreamExecution<String> run = runner.runStream(policy, targets(target("talker", talker)));
    // a slow reader: one chunk per 5 ms, so the stream outlives the total timeout
    Flow.Subscriber<String> slow = new Flow.Subscriber<>() {
      Flow.Subscription s;

      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        s = subscription;
        new Thread(() -> {
          for (int i = 0; i < 1000 && !talker.wasCancelled(); i++) {
            s.request(1);
            try {
              Thread.sleep(5);
            } catch (InterruptedException e) {
              return;
            }
          }
        }).start();
      }

      @Override
      public void onNext(String item) {}

      @Override
      public void onError(Throwable throwable) {}

      @Override
      public void onComplete() {}
    };
    run.subscribe(slow);
    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(result.totalElapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(390)).isLessThan(Duration.ofSeconds(10));
    assertThat(talker.wasCancelled()).isTrue();
  }

  @Test
  void cancellingMidStreamCancelsThePublisherAndEndsTheRunCancelledWithNoFurtherSignal() throws Exception {
    ScriptedPublisher talking = ScriptedPublisher.of("a", "b", ScriptedPublisher.HANG);
    StreamExecution<String> run = runner.runStream(policy("primary", "fallback").build(),
        targets(target("primary", talking), target("fallback", ScriptedPublisher.of("x", ScriptedPublisher.COMPLETE))));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);
    collector.subscription.cancel();

    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.CANCELLED);
    assertThat(result.attempts()).singleElement().satisfies(record -> {
      assertThat(record.failureKind()).isEqualTo(FailureKind.CANCELLED);
      assertThat(record.stream().chunks()).isEqualTo(2);
    });
    assertThat(talking.wasCancelled()).isTrue();
    assertThat(collector.ended.getCount()).as("no signal after a cancel").isEqualTo(1);
  }

  @Test
  void aSlowSubscriberIsNotTimedOutAndThePublisherIsAskedOnlyForWhatItWants() throws Exception {
    ScriptedPublisher patient = ScriptedPublisher.of("1", "2", "3", ScriptedPublisher.COMPLETE);
    ExecutionPolicy policy = policy("primary").chunkIdleTimeout(Duration.ofMillis(100)).build();
    StreamExecution<String> run = runner.runStream(policy, targets(target("primary", patient)));
    Collector collector = new Collector(1);
    run.subscribe(collector);
    Thread.sleep(400); // four idle timeouts with nothing asked for: the provider owes nothing
    assertThat(collector.chunks).containsExactly("1");
    assertThat(patient.requested).hasValue(1);
    collector.subscription.request(10);

    assertThat(collector.await().completed).isTrue();
    assertThat(collector.chunks).containsExactly("1", "2", "3");
  }

  @Test
  void aPublisherThatIgnoresDemandIsBufferedUpToTheCapThenItsAttemptIsMalformed() throws Exception {
    ScriptedPublisher flooding = ScriptedPublisher.of(ScriptedPublisher.HANG);
    ScriptedPublisher fallback = ScriptedPublisher.of("fine", ScriptedPublisher.COMPLETE);
    StreamExecution<String> run = runner.runStream(policy("flood", "fallback").retryableFailures(
        FailureKind.TIMEOUT, FailureKind.TRANSIENT, FailureKind.MALFORMED_RESPONSE).build(),
        targets(target("flood", flooding), target("fallback", fallback)));
    Collector collector = new Collector(0);
    run.subscribe(collector);
    collector.subscription.request(1); // starts the run; the flood below ignores this demand of one
    for (int i = 0; i <= StreamRun.MAX_BUFFERED_CHUNKS + 1 && !flooding.wasCancelled(); i++) {
      flooding.force("flood");
    }
    collector.subscription.request(10);
    // the first chunk was delivered before the flood overflowed: the run is interrupted, not fallen back
    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.STREAM_INTERRUPTED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(collector.chunks).containsExactly("flood");
    assertThat(fallback.subscriptions).hasValue(0);
  }

  @Test
  void aChunkOfTheWrongTypeBeforeAnyDeliveryFallsBackAsMalformed() throws Exception {
    ScriptedPublisher wrong = ScriptedPublisher.of(42, ScriptedPublisher.COMPLETE);
    ScriptedPublisher fallback = ScriptedPublisher.of("right", ScriptedPublisher.COMPLETE);
    ExecutionPolicy policy = policy("wrong", "fallback").retryableFailures(FailureKind.MALFORMED_RESPONSE).build();
    StreamExecution<String> run = runner.runStream(policy, targets(target("wrong", wrong), target("fallback", fallback)));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);
    assertThat(collector.await().chunks).containsExactly("right");
    assertThat(result(run).attempts().get(0).failureKind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
  }

  @Test
  void aPlanThatRunsOutBeforeAnyChunkEndsTheSubscriberWithTheRunsResult() throws Exception {
    ScriptedPublisher first = ScriptedPublisher.of(new AttemptError(FailureKind.RATE_LIMIT));
    ScriptedPublisher second = ScriptedPublisher.of(new AttemptError(FailureKind.TRANSIENT));
    StreamExecution<String> run = runner.runStream(policy("a", "b").backoff(Duration.ofMillis(50)).build(),
        targets(target("a", first), target("b", second)));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);
    ExecutionFailedException carried = collector.await().failedResult();
    assertThat(carried.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(carried.machineCode()).isEqualTo(MachineCodes.TRANSIENT);
    assertThat(carried.attempts()).hasSize(2);
    assertThat(carried.attempts().get(0).backoffBeforeNext()).isEqualTo(Duration.ofMillis(50));
    assertThat(collector.chunks).isEmpty();
  }

  @Test
  void aRefusedPlanEndsItsSubscriberAtOnceWithoutAnyCall() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    StreamExecution<String> run = runner.runStream(policy("missing").build(), targets(
        StreamExecutionTarget.of("present", String.class, context -> {
          calls.incrementAndGet();
          throw new AssertionError("never called");
        })));
    Collector collector = new Collector(Long.MAX_VALUE);
    run.subscribe(collector);
    ExecutionFailedException carried = collector.await().failedResult();
    assertThat(carried.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(carried.machineCode()).isEqualTo(MachineCodes.TARGET_UNAVAILABLE);
    assertThat(calls).hasValue(0);
  }

  @Test
  void aNonPositiveRequestCancelsTheRunAndTellsTheSubscriberWhy() throws Exception {
    ScriptedPublisher talking = ScriptedPublisher.of("a", ScriptedPublisher.HANG);
    StreamExecution<String> run = runner.runStream(policy("a").build(), targets(target("a", talking)));
    Collector collector = new Collector(1);
    run.subscribe(collector);
    collector.subscription.request(0);
    assertThat(collector.await().error).isInstanceOf(IllegalArgumentException.class);
    assertThat(result(run).outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(talking.wasCancelled()).isTrue();
  }

  @Test
  void theHostsCancellationTokenEndsAStreamAtItsNextChunk() throws Exception {
    ScriptedPublisher talking = ScriptedPublisher.of("a", "b", ScriptedPublisher.HANG);
    AtomicInteger seen = new AtomicInteger();
    boolean[] cancelled = {false};
    CancellationToken token = () -> cancelled[0];
    StreamExecution<String> run = runner.runStream(policy("a").build(), targets(target("a", talking)), token, null);
    Collector collector = new Collector(1) {
      @Override
      public void onNext(String chunk) {
        super.onNext(chunk);
        seen.incrementAndGet();
        cancelled[0] = true;
      }
    };
    run.subscribe(collector);
    collector.subscription.request(5);
    ResilientExecutionResult<StreamEvidence> result = result(run);
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(seen).hasValue(1);
    assertThat(talking.wasCancelled()).isTrue();
  }

  @Test
  void aSecondSubscriberIsRefused() throws Exception {
    StreamExecution<String> run = runner.runStream(policy("a").build(),
        targets(target("a", ScriptedPublisher.of("x", ScriptedPublisher.COMPLETE))));
    run.subscribe(new Collector(Long.MAX_VALUE));
    Collector second = new Collector(Long.MAX_VALUE);
    run.subscribe(second);
    assertThat(second.await().error).isInstanceOf(IllegalStateException.class);
  }
}
