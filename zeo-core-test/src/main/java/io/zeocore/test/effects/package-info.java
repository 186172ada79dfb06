/**
 * Fixtures for testing an application's own effect dispatchers and reconcilers: a temporary store, an authority, an
 * orchestrator, scripted dispatchers and reconcilers, and recovery sweeps on demand. Needs {@code zeo-connections}.
 */
@NullMarked
package io.zeocore.test.effects;

import org.jspecify.annotations.NullMarked;
