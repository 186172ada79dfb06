/**
 * Durable effect orchestration: the contract records (identifiers, {@link io.zeocore.connections.SecretRef},
 * {@link io.zeocore.connections.ConnectorRevision}, {@link io.zeocore.connections.Connection},
 * {@link io.zeocore.connections.EffectAuthorization}, {@link io.zeocore.connections.Execution} and its
 * {@link io.zeocore.connections.ExecutionState} machine, receipts, evidence, results), the provider SPIs
 * ({@link io.zeocore.connections.EffectDispatcher}, {@link io.zeocore.connections.EffectReconciler},
 * {@link io.zeocore.connections.ObservationDispatcher}) and the store ports
 * ({@link io.zeocore.connections.ConnectionStore}, {@link io.zeocore.connections.BrokerExecutionStore},
 * {@link io.zeocore.connections.ObservationStore}).
 *
 * <p>Every contract is an immutable record validated in its constructor ({@link java.lang.IllegalArgumentException}
 * naming the field by its wire name); instants are held at microsecond precision; JSON goes through
 * {@link io.zeocore.connections.ContractJson}.
 */
package io.zeocore.connections;
