package io.zeocore.connections.effect;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OperationId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls every {@link EffectListener}. Whatever a listener throws — an exception or an {@link Error}, a
 * {@link StackOverflowError} or {@link AssertionError} included — is logged (its type only) and never propagates: no
 * listener may change an effect's path (a listener failing after the claim must not keep the dispatch from happening).
 */
final class Listeners {

  private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

  private final List<EffectListener> listeners;

  Listeners(List<EffectListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  void transition(EffectRecord effect, @Nullable EffectState previousState) {
    for (EffectListener listener : listeners) {
      try {
        listener.transitionRecorded(effect, previousState);
      } catch (Throwable e) { // deliberately every Throwable: see the class comment
        LOG.warn("effect listener {} failed on a transition of execution {}: {}", listener.getClass().getName(),
            effect.effectId(), e.getClass().getName());
      }
    }
  }

  /** Each snapshot after the first as a transition from its predecessor; the first as a creation. */
  void chain(List<EffectRecord> snapshots) {
    EffectState previous = null;
    for (EffectRecord snapshot : snapshots) {
      transition(snapshot, previous);
      previous = snapshot.state();
    }
  }

  void receipt(EffectReceipt receipt) {
    for (EffectListener listener : listeners) {
      try {
        listener.receiptRecorded(receipt);
      } catch (Throwable e) { // deliberately every Throwable: see the class comment
        LOG.warn("effect listener {} failed on a receipt of execution {}: {}", listener.getClass().getName(),
            receipt.effectId(), e.getClass().getName());
      }
    }
  }

  void sweep(EffectRecovery.Sweep sweep) {
    for (EffectListener listener : listeners) {
      try {
        listener.sweepFinished(sweep);
      } catch (Throwable e) { // deliberately every Throwable: see the class comment
        LOG.warn("effect listener {} failed on a recovery sweep: {}", listener.getClass().getName(),
            e.getClass().getName());
      }
    }
  }

  /** The scopes of every listener for one execute call, as one; a listener that throws is left out of it. */
  EffectListener.ExecuteScope executeStarted(OperationId operationId, EffectId effectId) {
    if (listeners.isEmpty()) {
      return EffectListener.ExecuteScope.NONE;
    }
    List<EffectListener.ExecuteScope> scopes = new ArrayList<>(listeners.size());
    for (EffectListener listener : listeners) {
      try {
        scopes.add(listener.executeStarted(operationId, effectId));
      } catch (Throwable e) { // deliberately every Throwable: see the class comment
        LOG.warn("effect listener {} failed as execution {} started: {}", listener.getClass().getName(),
            effectId, e.getClass().getName());
      }
    }
    return new EffectListener.ExecuteScope() {
      @Override
      public void returned(EffectResult result) {
        each(scope -> scope.returned(result));
      }

      @Override
      public void threw(RuntimeException thrown) {
        each(scope -> scope.threw(thrown));
      }

      /** Tells every scope, the last opened first. */
      private void each(Consumer<EffectListener.ExecuteScope> end) {
        for (int i = scopes.size() - 1; i >= 0; i--) {
          try {
            end.accept(scopes.get(i));
          } catch (Throwable e) { // deliberately every Throwable: see the class comment
            LOG.warn("effect listener scope {} failed as execution {} ended: {}", scopes.get(i).getClass().getName(),
                effectId, e.getClass().getName());
          }
        }
      }
    };
  }
}
