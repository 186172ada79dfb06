package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Published after an effect's state change has been durably committed by the {@code EffectOrchestrator} or
 * {@code EffectRecovery}, in commit order, on the thread that made the change. Carries the stored effect record
 * (ids, digests, state, instants): never a request body, secret or provider text.
 *
 * @param effect the effect as stored
 * @param previousState the state it left, or {@code null} when it was created
 */
public record EffectTransitionEvent(EffectRecord effect, @Nullable EffectState previousState) {

  public EffectTransitionEvent {
    Objects.requireNonNull(effect, "execution");
  }

  /** The state reached. */
  public EffectState state() {
    return effect.state();
  }
}
