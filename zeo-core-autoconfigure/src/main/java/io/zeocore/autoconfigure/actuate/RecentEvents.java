package io.zeocore.autoconfigure.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.JsonMilliseconds;
import io.zeocore.WireValue;
import io.zeocore.autoconfigure.connections.EffectTransitionEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.FailureKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;

/**
 * The most recent runs and effect transitions, newest last, in a bounded in-memory ring (the oldest entry is dropped
 * when it is full): what {@code /actuator/zeocore/events} and {@code /actuator/zeocore/{policy}} show. Entries hold
 * names, ids, codes, counts and timings only — never a value, request, message or provider text. Thread-safe; one
 * short lock per event.
 */
public final class RecentEvents {

  /** What happened. */
  public enum Kind implements WireValue.Lowercase {
    /** A run of the starter's runner ended. */
    RUN,
    /** An effect's state changed (orchestrator or recovery). */
    EFFECT_TRANSITION
  }

  /**
   * One entry; fields that do not apply to its kind are absent from the JSON.
   *
   * @param kind {@code run} or {@code effect_transition}
   * @param at when the event was recorded here
   * @param policy the run's policy
   * @param executionId the run's execution id
 * @param effectId the effect's id
   * @param outcome the run's outcome wire value
   * @param failureKind the run's failure kind wire value
   * @param targets the run's attempts as {@code target:outcome} (e.g. {@code ollama-local:rate_limit},
   *     {@code openai-api:succeeded})
   * @param totalElapsed the run's total elapsed time, in milliseconds in JSON
   * @param operation the effect's operation id
   * @param state the effect state reached ({@code AMBIGUOUS}, …)
   * @param previousState the state it left, absent for a creation
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Entry(Kind kind, Instant at, @Nullable String policy, @Nullable String executionId,
      @Nullable String effectId, @Nullable String outcome,
      @Nullable String failureKind, @Nullable List<String> targets, @JsonMilliseconds @Nullable Duration totalElapsed,
      @Nullable String operation, @Nullable String state, @Nullable String previousState) {}

  private final int capacity;
  private final Clock clock;
  private final ArrayDeque<Entry> entries;

  /** A ring of {@code capacity} entries on the system clock. */
  public RecentEvents(int capacity) {
    this(capacity, Clock.systemUTC());
  }

  RecentEvents(int capacity, Clock clock) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1");
    }
    this.capacity = capacity;
    this.clock = clock;
    this.entries = new ArrayDeque<>(Math.min(capacity, 1024));
  }

  @EventListener
  void runCompleted(ExecutionCompletedEvent event) {
    List<String> targets = new ArrayList<>(event.attempts().size());
    for (AttemptRecord attempt : event.attempts()) {
      targets.add(attempt.targetId() + ":"
          + (attempt.failureKind() != null ? attempt.failureKind().wireValue() : attempt.outcome().wireValue()));
    }
    FailureKind kind = event.failureKind();
    add(new Entry(Kind.RUN, clock.instant(), event.policyName(), event.executionId(), null, event.outcome().wireValue(),
        kind != null ? kind.wireValue() : null, List.copyOf(targets), event.totalElapsed(), null, null, null));
  }

  @EventListener
  void effectTransition(EffectTransitionEvent event) {
    add(new Entry(Kind.EFFECT_TRANSITION, clock.instant(), null, null, event.effect().effectId().value(), null, null,
        null, null, event.effect().operationId().value(), event.state().name(),
        event.previousState() != null ? event.previousState().name() : null));
  }

  private synchronized void add(Entry entry) {
    if (entries.size() == capacity) {
      entries.removeFirst();
    }
    entries.addLast(entry);
  }

  /** Every entry held, oldest first. */
  public synchronized List<Entry> all() {
    return List.copyOf(entries);
  }

  /** The runs of {@code policy} held, oldest first. */
  public synchronized List<Entry> runsOf(String policy) {
    return entries.stream().filter(entry -> policy.equals(entry.policy())).toList();
  }

  /** How many entries the ring keeps. */
  public int capacity() {
    return capacity;
  }
}
