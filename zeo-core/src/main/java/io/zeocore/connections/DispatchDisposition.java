package io.zeocore.connections;

/**
 * What an {@link EffectDispatcher} established about the effect it dispatched.
 */
public enum DispatchDisposition {
  CONFIRMED,
  FAILED_SAFE;
}
