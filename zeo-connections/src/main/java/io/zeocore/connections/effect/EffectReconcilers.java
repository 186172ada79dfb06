package io.zeocore.connections.effect;

import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.OperationId;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where {@link EffectRecovery} finds the {@link EffectReconciler} of an effect's operation. Reconcilers inspect the
 * provider; they never re-issue an effect.
 */
@FunctionalInterface
public interface EffectReconcilers {

  /** The reconciler for {@code operation} of {@code revision} used through {@code connection}, if one is registered. */
  Optional<EffectReconciler> find(Connection connection, ConnectorRevision revision, BusinessOperation operation);

  /** Reconcilers keyed by operation id. */
  static EffectReconcilers byOperation(Map<OperationId, ? extends EffectReconciler> reconcilers) {
    Map<OperationId, EffectReconciler> copy = Map.copyOf(Objects.requireNonNull(reconcilers, "reconcilers"));
    return (connection, revision, operation) -> Optional.ofNullable(copy.get(operation.operationId()));
  }

  /** Reconcilers keyed by the operation's {@code reconciliation_strategy}. */
  static EffectReconcilers byStrategy(Map<String, ? extends EffectReconciler> reconcilers) {
    Map<String, EffectReconciler> copy = Map.copyOf(Objects.requireNonNull(reconcilers, "reconcilers"));
    return (connection, revision, operation) -> operation.reconciliationStrategy() == null ? Optional.empty()
        : Optional.ofNullable(copy.get(operation.reconciliationStrategy()));
  }

  /** One reconciler for every operation. */
  static EffectReconcilers always(EffectReconciler reconciler) {
    Objects.requireNonNull(reconciler, "reconciler");
    return (connection, revision, operation) -> Optional.of(reconciler);
  }
}
