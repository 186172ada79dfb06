package io.zeocore.connections.effect;

/**
 * Establishes what happened to an {@code AMBIGUOUS} effect by inspecting the provider. It must never re-issue the
 * effect. The orchestrator calls it once right after an ambiguous dispatch and recovery may call it again later with
 * backoff; each unresolved call appends an attempt receipt and leaves the effect {@code AMBIGUOUS}.
 *
 * <p>An exception or a {@code null} return counts as "no result" (the effect stays {@code AMBIGUOUS}). See
 * {@link EffectReconciliationRequest} for why the request body may be absent.
 */
@FunctionalInterface
public interface EffectReconciler {

  ReconciliationResult reconcile(EffectReconciliationRequest request) throws Exception;
}
