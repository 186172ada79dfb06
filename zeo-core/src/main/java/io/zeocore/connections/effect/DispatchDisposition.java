package io.zeocore.connections.effect;

/**
 * What an {@link EffectDispatcher} established about the effect it dispatched.
 */
public enum DispatchDisposition {
  CONFIRMED,
  FAILED_SAFE;
}
