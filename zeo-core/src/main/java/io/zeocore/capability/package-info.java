/**
 * Bound capabilities: {@link io.zeocore.capability.BoundCapability} binds an operation to its declared effect kind and
 * one-attempt implementation, returning a {@link io.zeocore.capability.CapabilityResult};
 * {@link io.zeocore.capability.CapabilityTargets} turns a read-only capability into an execution target.
 */
@NullMarked
package io.zeocore.capability;

import org.jspecify.annotations.NullMarked;
