package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptListener;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@link AttemptListener} that turns every run of a {@link io.zeocore.execution.ResilientRunner} into Micrometer
 * observations: one {@code zeocore.execution} observation per run (started as the run begins, a child of the
 * observation current on the calling thread, stopped with the result) and one {@code zeocore.execution.attempt}
 * observation per attempt, an explicit child of its run's observation, so the tree holds for async runs whose attempts
 * start on the scheduler thread too. Observations carry names and codes only (see the conventions).
 *
 * <p>While an attempt's target is called (a sync target's whole call, an async target's {@code invoke}), the
 * attempt's observation is opened in scope on the calling thread, so observations the target's clients make
 * ({@code RestClient}, the JDK {@code HttpClient} through an observation-aware wrapper, Spring AI) become its children
 * and, with a tracing bridge, their spans nest under the attempt's span; the scope is closed on the same thread when
 * the call returns. The run's execution id is the runner's, shared with the starter's events and log MDC.
 */
public final class ObservingAttemptListener implements AttemptListener {

  /**
   * The name of the event on a run's observation for each planned position skipped because its target was cooling
   * down ({@code ZEO_EXEC_TARGET_COOLING}); its contextual name names the target.
   */
  public static final String SKIPPED_EVENT = "zeocore.target.skipped";

  private static final ExecutionObservationConvention DEFAULT_RUN = new DefaultExecutionObservationConvention();
  private static final AttemptObservationConvention DEFAULT_ATTEMPT = new DefaultAttemptObservationConvention();

  private final ObservationRegistry registry;
  private final @Nullable ExecutionObservationConvention runConvention;
  private final @Nullable AttemptObservationConvention attemptConvention;

  /** A listener with the default conventions. */
  public ObservingAttemptListener(ObservationRegistry registry) {
    this(registry, null, null);
  }

  /**
   * @param runConvention the run convention replacing the default, or {@code null}
   * @param attemptConvention the attempt convention replacing the default, or {@code null}
   */
  public ObservingAttemptListener(ObservationRegistry registry, @Nullable ExecutionObservationConvention runConvention,
      @Nullable AttemptObservationConvention attemptConvention) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.runConvention = runConvention;
    this.attemptConvention = attemptConvention;
  }

  /** Runs that did not go through {@link #forRun} are not observed. */
  @Override
  public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {}

  @Override
  public AttemptListener forRun(ExecutionPolicy policy, String executionId) {
    if (registry.isNoop()) {
      return this;
    }
    ExecutionObservationContext context = new ExecutionObservationContext(policy.name(), executionId);
    Observation observation = Observation.createNotStarted(runConvention, DEFAULT_RUN, () -> context, registry)
        .start();
    return new RunObserver(context, observation);
  }

  private final class RunObserver implements AttemptListener {

    private final ExecutionObservationContext context;
    private final Observation run;
    private @Nullable Observation attempt;
    private @Nullable AttemptObservationContext attemptContext;

    RunObserver(ExecutionObservationContext context, Observation run) {
      this.context = context;
      this.run = run;
    }

    @Override
    public void attemptStarted(ExecutionPolicy policy, AttemptContext started) {
      AttemptObservationContext next = new AttemptObservationContext(context.getPolicyName(),
          context.getExecutionId(), started);
      attemptContext = next;
      attempt = Observation.createNotStarted(attemptConvention, DEFAULT_ATTEMPT, () -> next, registry)
          .parentObservation(run)
          .start();
    }

    /** The attempt's observation is current while its target is called, so client calls nest under it. */
    @Override
    public TargetScope targetScope(ExecutionPolicy policy, AttemptContext started) {
      Observation current = attempt;
      if (current == null) {
        return TargetScope.NONE;
      }
      Observation.Scope scope = current.openScope();
      return scope::close;
    }

    @Override
    public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
      if (record.outcome() == AttemptOutcome.SKIPPED) {
        // no call, so no attempt observation: an event on the run (a span annotation), with the target id only
        run.event(Observation.Event.of(SKIPPED_EVENT, "target " + record.targetId() + " skipped: cooling down"));
        return;
      }
      Observation ended = attempt;
      AttemptObservationContext endedContext = attemptContext;
      if (ended != null && endedContext != null) { // both set when an attempt starts
        endedContext.setRecord(record);
        attempt = null;
        ended.stop();
      }
    }

    @Override
    public void runFinished(ExecutionPolicy policy, ResilientExecutionResult<?> result) {
      context.setResult(result);
      run.stop();
    }
  }
}
