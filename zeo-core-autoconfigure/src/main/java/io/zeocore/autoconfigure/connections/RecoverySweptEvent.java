package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.effect.EffectRecovery;
import java.util.Objects;

/**
 * One recovery sweep ended, on the thread that ran it (the recovery lifecycle's, or a caller of
 * {@code EffectRecovery.recoverOnce}): how many effects it examined and how each ended. Counts only.
 *
 * @param sweep the sweep's counts
 */
public record RecoverySweptEvent(EffectRecovery.Sweep sweep) {

  public RecoverySweptEvent {
    Objects.requireNonNull(sweep, "sweep");
  }
}
