package io.zeocore.autoconfigure.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.autoconfigure.execution.TargetHealthChangedEvent;
import io.zeocore.autoconfigure.faults.FaultInjectedEvent;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ModelUsage;
import io.zeocore.execution.StreamEvidence;
import io.zeocore.execution.TargetHealth;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;

/**
 * Counts the runs published by {@link io.zeocore.autoconfigure.execution.ExecutionEventPublisher} (every run of the
 * starter's {@code ResilientRunner}, also through {@code ZeoCoreExecutions}) in Micrometer:
 * <ul>
 *   <li>{@code zeocore.execution.attempts} (counter), tags {@code policy}, {@code target}, {@code outcome}
 *       ({@code succeeded}/{@code failed}/{@code skipped}), {@code failure.kind} (the kind's wire value, {@code none}
 *       for a success) and {@code injected} ({@code true} for a failure fault injection made up,
 *       {@code ZEO_EXEC_FAULT_INJECTED});</li>
 *   <li>{@code zeocore.faults.injected} (counter of faults injected by {@code zeocore.faults}, latency included),
 *       tags {@code target} and {@code fault} (the kind, {@code hang} or {@code latency});</li>
 *   <li>{@code zeocore.execution.duration} (timer of the run's total elapsed time), tags {@code policy} and
 *       {@code outcome} (the terminal outcome's wire value, e.g. {@code failed_safe});</li>
 *   <li>{@code zeocore.execution.calls} (counter of runs), tags {@code policy} and {@code kind}:
 *       {@code successful_without_retry} (first attempt succeeded), {@code successful_with_retry} (succeeded after a
 *       retry or a fallback) or {@code failed};</li>
 *   <li>{@code zeocore.execution.fallbacks} (counter), tags {@code policy}, {@code from} and {@code to}: each time a
 *       run moved from one target to another after a failed attempt;</li>
 *   <li>{@code zeocore.execution.tokens} (distribution summary, as OpenTelemetry's
 *       {@code gen_ai.client.token.usage}), tags {@code policy}, {@code target} and {@code gen_ai.token.type}
 *       ({@code input}/{@code output}): the tokens each attempt's provider request reported, recorded once per
 *       request (Spring AI's own {@code gen_ai.client.token.usage}, when its model observations are metered, is a
 *       separate meter with its own tags: nothing is counted twice in one meter).</li>
 *   <li>for streamed attempts ({@code ResilientRunner.runStream}): {@code zeocore.execution.stream.first-chunk}
 *       (timer of the time to the first delivered chunk), tags {@code policy} and {@code target};
 *       {@code zeocore.execution.stream.chunks} (distribution summary of the chunks each attempt delivered), tags
 *       {@code policy}, {@code target} and {@code outcome}; and {@code zeocore.execution.stream.interrupted} (counter
 *       of streams that failed after partial output, {@code ZEO_EXEC_STREAM_INTERRUPTED}), tags {@code policy},
 *       {@code target} and {@code failure.kind}.</li>
 *   <li>for target health: {@code zeocore.execution.target.skips} (counter of planned positions not called because
 *       their target was cooling, {@code ZEO_EXEC_TARGET_COOLING}), tags {@code policy}, {@code target} and
 *       {@code failure.kind} (the kind that cooled it); {@code zeocore.execution.target.transitions} (counter of
 *       target health changes this instance saw), tags {@code target}, {@code transition}
 *       ({@code cooling_started}, {@code probe_started}, {@code cooling_ended}), {@code failure.kind} and
 *       {@code origin} ({@code local}, or {@code store} when another instance made the change); and
 *       {@code zeocore.execution.target.unavailable} (gauge of the targets cooling or awaiting their probe).</li>
 * </ul>
 * Skipped positions are also counted by {@code zeocore.execution.attempts} with {@code outcome} {@code skipped}.
 * Tag values are configuration names and codes only, so their number is bounded by the configuration.
 */
public final class ZeoCoreExecutionMetrics {

  /** Name of the attempt counter. */
  public static final String ATTEMPTS = "zeocore.execution.attempts";
  /** Name of the run timer. */
  public static final String DURATION = "zeocore.execution.duration";
  /** Name of the run counter by kind, as Resilience4j's {@code resilience4j.retry.calls}. */
  public static final String CALLS = "zeocore.execution.calls";
  /** Name of the fallback counter (the plan moved from one target to another). */
  public static final String FALLBACKS = "zeocore.execution.fallbacks";
  /** Name of the counter of positions skipped because their target was cooling. */
  public static final String TARGET_SKIPS = "zeocore.execution.target.skips";
  /** Name of the counter of target health changes. */
  public static final String TARGET_TRANSITIONS = "zeocore.execution.target.transitions";
  /** Name of the gauge of targets that are not available (cooling, or awaiting their probe). */
  public static final String TARGET_UNAVAILABLE = "zeocore.execution.target.unavailable";
  /** Name of the counter of injected faults ({@code zeocore.faults}). */
  public static final String FAULTS_INJECTED = "zeocore.faults.injected";
  /** Name of the token usage summary. */
  public static final String TOKENS = "zeocore.execution.tokens";

  /** Name of the time-to-first-chunk timer of streamed attempts. */
  public static final String STREAM_FIRST_CHUNK = "zeocore.execution.stream.first-chunk";
  /** Name of the summary of chunks delivered per streamed attempt. */
  public static final String STREAM_CHUNKS = "zeocore.execution.stream.chunks";
  /** Name of the counter of streams interrupted after partial output. */
  public static final String STREAM_INTERRUPTED = "zeocore.execution.stream.interrupted";

  private final MeterRegistry registry;

  public ZeoCoreExecutionMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Counts one ended attempt. */
  @EventListener
  public void attemptRecorded(AttemptRecordedEvent event) {
    AttemptRecord attempt = event.attempt();
    Counter.builder(ATTEMPTS)
        .description("Attempts made by ZeoCore's runner, as they end")
        .tag("policy", event.policyName())
        .tag("target", attempt.targetId())
        .tag("outcome", attempt.outcome().wireValue())
        .tag("failure.kind", attempt.failureKind() != null ? attempt.failureKind().wireValue() : "none")
        .tag("injected", String.valueOf(MachineCodes.FAULT_INJECTED.equals(attempt.machineCode())))
        .register(registry)
        .increment();
    if (attempt.outcome() == AttemptOutcome.SKIPPED) {
      Counter.builder(TARGET_SKIPS)
          .description("Planned positions not called because their target was cooling down")
          .tag("policy", event.policyName())
          .tag("target", attempt.targetId())
          .tag("failure.kind", attempt.failureKind() != null ? attempt.failureKind().wireValue() : "none")
          .register(registry)
          .increment();
    }
    ModelUsage usage = attempt.usage();
    if (usage != null) {
      recordTokens(event.policyName(), attempt.targetId(), "input", usage.inputTokens());
      recordTokens(event.policyName(), attempt.targetId(), "output", usage.outputTokens());
    }
    StreamEvidence stream = attempt.stream();
    if (stream != null) {
      recordStream(event.policyName(), attempt, stream);
    }
  }

  private void recordStream(String policy, AttemptRecord attempt, StreamEvidence stream) {
    Duration firstChunk = stream.timeToFirstChunk();
    if (firstChunk != null) {
      Timer.builder(STREAM_FIRST_CHUNK)
          .description("Time from a streamed attempt's start to its first delivered chunk")
          .tag("policy", policy)
          .tag("target", attempt.targetId())
          .register(registry)
          .record(firstChunk);
    }
    DistributionSummary.builder(STREAM_CHUNKS)
        .description("Chunks each streamed attempt delivered")
        .baseUnit("chunks")
        .tag("policy", policy)
        .tag("target", attempt.targetId())
        .tag("outcome", attempt.outcome().wireValue())
        .register(registry)
        .record(stream.chunks());
    FailureKind kind = attempt.failureKind();
    if (kind != null && kind != FailureKind.CANCELLED && stream.partialOutputDelivered()) {
      Counter.builder(STREAM_INTERRUPTED)
          .description("Streams that failed after part of the answer was delivered (ZEO_EXEC_STREAM_INTERRUPTED)")
          .tag("policy", policy)
          .tag("target", attempt.targetId())
          .tag("failure.kind", kind.wireValue())
          .register(registry)
          .increment();
    }
  }

  private void recordTokens(String policy, String target, String type, @Nullable Long tokens) {
    if (tokens == null) {
      return;
    }
    DistributionSummary.builder(TOKENS)
        .description("Tokens a provider reported per ZeoCore attempt's model request")
        .baseUnit("tokens")
        .tag("policy", policy)
        .tag("target", target)
        .tag("gen_ai.token.type", type)
        .register(registry)
        .record(tokens);
  }

  /** Counts one injected fault. */
  @EventListener
  public void faultInjected(FaultInjectedEvent event) {
    Counter.builder(FAULTS_INJECTED)
        .description("Faults injected into target calls by zeocore.faults (never a provider's failure)")
        .tag("target", event.targetId())
        .tag("fault", event.fault())
        .register(registry)
        .increment();
  }

  /** Counts one target health change. */
  @EventListener
  public void targetHealthChanged(TargetHealthChangedEvent event) {
    TargetHealth.Change change = event.change();
    Counter.builder(TARGET_TRANSITIONS)
        .description("Target health changes this instance saw: a target started cooling, was probed, reopened")
        .tag("target", change.targetId())
        .tag("transition", change.transition().wireValue())
        .tag("failure.kind", change.cause().wireValue())
        .tag("origin", change.fromStore() ? "store" : "local")
        .register(registry)
        .increment();
  }

  /** Registers the gauge of unavailable targets of {@code health}. */
  public void bindTargetHealth(TargetHealth health) {
    Gauge.builder(TARGET_UNAVAILABLE, health, h -> h.states().size())
        .description("Targets cooling down or awaiting their probe, as this instance sees them")
        .register(registry);
  }

  /** Times one finished run. */
  @EventListener
  public void executionCompleted(ExecutionCompletedEvent event) {
    Timer.builder(DURATION)
        .description("Total elapsed time of ZeoCore runs, from start to terminal decision")
        .tag("policy", event.policyName())
        .tag("outcome", event.outcome().wireValue())
        .register(registry)
        .record(event.totalElapsed());
    List<AttemptRecord> attempts = event.attempts();
    String kind = !event.succeeded() ? "failed"
        : attempts.size() <= 1 ? "successful_without_retry" : "successful_with_retry";
    Counter.builder(CALLS)
        .description("Runs of ZeoCore's runner by kind")
        .tag("policy", event.policyName())
        .tag("kind", kind)
        .register(registry)
        .increment();
    for (int i = 1; i < attempts.size(); i++) {
      String from = attempts.get(i - 1).targetId();
      String to = attempts.get(i).targetId();
      if (!from.equals(to)) {
        Counter.builder(FALLBACKS)
            .description("Moves of a run from one target to another after a failed or skipped attempt")
            .tag("policy", event.policyName())
            .tag("from", from)
            .tag("to", to)
            .register(registry)
            .increment();
      }
    }
  }
}
