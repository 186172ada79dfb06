package io.zeocore.connections.effect;

/**
 * Performs one effect at the provider. The orchestrator calls {@link #dispatch} at most once per idempotency identity,
 * ever, and only after {@code DISPATCH_STARTED} is durable.
 *
 * <p>Contract: make exactly one provider call and never retry internally. Return {@link EffectDispatchResult#confirmed}
 * only when the provider confirmed the effect, {@link EffectDispatchResult#failedSafe} only when the provider proved
 * that nothing happened. When the outcome is unknown (timeout after sending, connection reset, unparseable answer),
 * throw: any exception, and any {@code null} return, makes the effect {@code AMBIGUOUS} and hands it to the
 * {@link EffectReconciler}. Exception text is discarded, never persisted.
 */
@FunctionalInterface
public interface EffectDispatcher {

  EffectDispatchResult dispatch(EffectDispatchRequest request) throws Exception;
}
