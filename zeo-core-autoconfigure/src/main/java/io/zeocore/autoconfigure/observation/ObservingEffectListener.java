package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.effect.EffectListener;
import io.zeocore.connections.effect.EffectPreflightException;
import io.zeocore.connections.effect.EffectResult;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@link EffectListener} behind effect observations: one {@code zeocore.effect} observation per
 * {@code EffectOrchestrator.execute} call (see {@link DefaultEffectObservationConvention}), and every committed effect
 * transition as a short {@value #NAME} observation, a child of the observation current on the committing thread (the
 * call's {@code zeocore.effect}, or a recovery sweep's caller). Low-cardinality keys: {@code operation} (the operation id), {@code state} (the state reached, lower
 * case, e.g. {@code ambiguous}) and {@code previous.state} ({@code none} for a creation); high-cardinality key:
 * {@code effect.id}. Ids, states and codes only: never a request body, secret or provider text.
 */
public final class ObservingEffectListener implements EffectListener {

  /** The observation's name. */
  public static final String NAME = "zeocore.effect.transition";

  private static final Convention DEFAULT = new Convention();

  private static final EffectObservationConvention DEFAULT_EFFECT = new DefaultEffectObservationConvention();

  private final ObservationRegistry registry;
  private final @Nullable EffectObservationConvention effectConvention;

  public ObservingEffectListener(ObservationRegistry registry) {
    this(registry, null);
  }

  /** @param effectConvention the convention of {@code zeocore.effect} observations replacing the default, or null */
  public ObservingEffectListener(ObservationRegistry registry, @Nullable EffectObservationConvention effectConvention) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.effectConvention = effectConvention;
  }

  /**
   * Starts the call's {@code zeocore.effect} observation and opens it in scope on the caller's thread, so the call's
   * transition observations (and whatever the dispatcher observes, its HTTP client's spans included) are its
   * children; stopped, with the state reached or the exception's type, as the call ends.
   */
  @Override
  public ExecuteScope executeStarted(OperationId operationId, EffectId effectId) {
    if (registry.isNoop()) {
      return ExecuteScope.NONE;
    }
    EffectObservationContext context = new EffectObservationContext(operationId, effectId);
    context.start(Observation.createNotStarted(effectConvention, DEFAULT_EFFECT, () -> context, registry));
    return new ExecuteScope() {
      @Override
      public void returned(EffectResult result) {
        context.returned(result.state(), result.refusalReason());
      }

      @Override
      public void threw(RuntimeException thrown) {
        context.threw(thrown, thrown instanceof EffectPreflightException preflight ? preflight.code() : null);
      }
    };
  }

  @Override
  public void transitionRecorded(EffectRecord effect, @Nullable EffectState previousState) {
    TransitionContext context = new TransitionContext(effect, previousState);
    Observation.createNotStarted(null, DEFAULT, () -> context, registry).start().stop();
  }

  /** The context of one committed transition. */
  public static final class TransitionContext extends Observation.Context {

    private final EffectRecord effect;
    private final @Nullable EffectState previousState;

    TransitionContext(EffectRecord effect, @Nullable EffectState previousState) {
      this.effect = effect;
      this.previousState = previousState;
    }

    public EffectRecord getEffect() {
      return effect;
    }

    /** The state left, {@code null} for a creation. */
    public @Nullable EffectState getPreviousState() {
      return previousState;
    }
  }

  private static final class Convention implements ObservationConvention<TransitionContext> {

    @Override
    public String getName() {
      return NAME;
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return context instanceof TransitionContext;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(TransitionContext context) {
      EffectState previous = context.getPreviousState();
      return KeyValues.of("operation", context.getEffect().operationId().value(), "state",
          context.getEffect().state().name().toLowerCase(Locale.ROOT), "previous.state",
          previous != null ? previous.name().toLowerCase(Locale.ROOT) : "none");
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(TransitionContext context) {
      return KeyValues.of("effect.id", context.getEffect().effectId().value());
    }
  }
}
