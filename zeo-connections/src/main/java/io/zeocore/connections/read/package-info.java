/**
 * Read-only provider calls with an authorization and a receipt:
 * {@link io.zeocore.connections.read.ReadOrchestrator} runs the same preflight and authorization checks
 * as effects, claims the read, calls the application's
 * {@link io.zeocore.connections.read.ReadDispatcher} once and records one receipt with the inline result
 * (canonical JSON) or an artifact reference.
 */
@NullMarked
package io.zeocore.connections.read;

import org.jspecify.annotations.NullMarked;
