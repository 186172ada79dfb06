/**
 * Durable effects: {@link io.zeocore.connections.effect.EffectOrchestrator} verifies an authorization exactly,
 * commits the claim before the provider is entered, dispatches once through the application's
 * {@link io.zeocore.connections.effect.EffectDispatcher}, and commits the outcome with its receipt.
 * {@link io.zeocore.connections.effect.EffectRecovery} turns stale dispatches into ambiguity and resolves ambiguity
 * through {@link io.zeocore.connections.effect.EffectReconciler}s, never by dispatching again.
 *
 * <p>The SPI an application implements: {@link io.zeocore.connections.effect.EffectDispatcher},
 * {@link io.zeocore.connections.effect.EffectReconciler} (looked up per operation through
 * {@link io.zeocore.connections.effect.EffectReconcilers}) and, to observe transitions,
 * {@link io.zeocore.connections.effect.EffectListener}. Results are
 * {@link io.zeocore.connections.effect.EffectResult} and
 * {@link io.zeocore.connections.effect.ReconciliationResult}.
 */
@NullMarked
package io.zeocore.connections.effect;

import org.jspecify.annotations.NullMarked;
