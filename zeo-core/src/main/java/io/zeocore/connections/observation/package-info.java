/**
 * Read-only provider calls with an authorization and a receipt:
 * {@link io.zeocore.connections.observation.ObservationOrchestrator} runs the same preflight and authorization checks
 * as effects, claims the observation, calls the application's
 * {@link io.zeocore.connections.observation.ObservationDispatcher} once and records one receipt with the inline result
 * (canonical JSON) or an artifact reference.
 */
@NullMarked
package io.zeocore.connections.observation;

import org.jspecify.annotations.NullMarked;
