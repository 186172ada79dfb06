package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;

/**
 * The default convention of effect execution observations, named {@value #NAME}, one per
 * {@code EffectOrchestrator.execute} call; its committed transitions ({@code zeocore.effect.transition}) are its
 * children. Low-cardinality keys: {@code operation} (the operation id), {@code state} (the state the call returned,
 * lower case — {@code succeeded}, {@code ambiguous}, {@code refused}, … — or {@code error} when it threw),
 * {@code refusal.reason} (the refusal reason, lower case, {@code none} unless refused) and {@code error} (the thrown
 * exception's simple class name and, for a preflight rejection, its code, e.g.
 * {@code EffectPreflightException:operation_not_exposed}; {@code none} when the call returned). High-cardinality key:
 * {@code effect.id}. Ids and codes only: never a body, secret, message or provider text.
 */
public class DefaultEffectObservationConvention extends ConnectionCallConvention<EffectObservationContext>
    implements EffectObservationConvention {

  /** The observation's name. */
  public static final String NAME = "zeocore.effect";

  public DefaultEffectObservationConvention() {
    super(NAME, "zeocore effect");
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(EffectObservationContext context) {
    return KeyValues.of("effect.id", context.getCallId());
  }
}
