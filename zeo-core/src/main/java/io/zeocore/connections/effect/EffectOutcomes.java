package io.zeocore.connections.effect;

import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.EffectExecution;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.EffectStore;
import io.zeocore.internal.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable steps after {@code DISPATCH_STARTED}, shared by {@link EffectOrchestrator} and {@link EffectRecovery}:
 * direct outcomes, ambiguity, and reconciliation attempts. Each step is one store transaction followed by the listener
 * calls. A compare-and-set conflict (another process moved the execution on first) is not an error: the step answers
 * with the execution's current state.
 */
final class EffectOutcomes {

  /** SHA-256 hex of the ASCII text {@code reconciliation-unavailable}: the attempt evidence when there was no result. */
  static final String RECONCILIATION_UNAVAILABLE =
      "a762ee13beb81030908d9ae101aed878102db252b17be3bbbd2d5585a3aa5592";

  static final String AMBIGUOUS_MESSAGE = "dispatch started but positive outcome is unknown";
  static final String UNAVAILABLE_MESSAGE = "reconciliation produced no result";
  static final String UNRESOLVED_MESSAGE = "reconciliation did not establish the provider effect";

  private static final Logger LOG = LoggerFactory.getLogger(EffectOutcomes.class);

  private final EffectStore store;
  private final Timestamps timestamps;
  private final Listeners listeners;

  EffectOutcomes(EffectStore store, Timestamps timestamps, Listeners listeners) {
    this.store = store;
    this.timestamps = timestamps;
    this.listeners = listeners;
  }

  /**
   * An {@code AMBIGUOUS} execution and the receipt that made it so.
   *
   * @param execution the {@code AMBIGUOUS} snapshot
   * @param recordedAt the ambiguity receipt's {@code recordedAt}: the pointer a resolution refers to
   * @param dispatchStartedAt when the provider was entered
   */
  record Ambiguity(EffectExecution execution, Instant recordedAt, Instant dispatchStartedAt) {}

  /** Commits a dispatcher's {@code CONFIRMED} or {@code FAILED_SAFE} result from {@code DISPATCH_STARTED}. */
  EffectExecutionResult commitDispatchResult(OrganizationId organizationId, EffectExecution started,
      EffectDispatchResult result) {
    Instant completedAt = timestamps.next(started.updatedAt());
    if (result.disposition() == DispatchDisposition.CONFIRMED) {
      ConfirmationEvidence evidence = store.newConfirmationEvidence(organizationId, started.executionId(),
          completedAt, result.confirmationDigest());
      EffectExecution succeeded = started.transitionTo(EffectState.SUCCEEDED, completedAt);
      EffectReceipt receipt = EffectReceipt.succeeded(started, completedAt, started.updatedAt(),
          evidence.evidenceRef());
      return committed(organizationId, started, succeeded, receipt, evidence);
    }
    return failSafe(organizationId, started, result.normalizedError(), completedAt);
  }

  /** Ends a {@code DISPATCH_STARTED} execution {@code FAILED_SAFE}: the dispatcher proved nothing reached the provider. */
  EffectExecutionResult commitNotStarted(OrganizationId organizationId, EffectExecution started, NormalizedError error) {
    return failSafe(organizationId, started, error, timestamps.next(started.updatedAt()));
  }

  private EffectExecutionResult failSafe(OrganizationId organizationId, EffectExecution started, NormalizedError error,
      Instant completedAt) {
    EffectExecution failed = started.transitionTo(EffectState.FAILED_SAFE, completedAt);
    EffectReceipt receipt = EffectReceipt.failedSafe(started, error, completedAt, started.updatedAt());
    return committed(organizationId, started, failed, receipt, null);
  }

  /**
   * {@code DISPATCH_STARTED → AMBIGUOUS} with its {@code RESULT_AMBIGUOUS} receipt, atomically.
   *
   * @return the ambiguity, or {@code null} when another process moved the execution on first (nothing written; read
   *     the execution for its state)
   */
  Ambiguity recordAmbiguity(OrganizationId organizationId, EffectExecution started) {
    Instant ambiguousAt = timestamps.next(started.updatedAt());
    EffectExecution ambiguous = started.transitionTo(EffectState.AMBIGUOUS, ambiguousAt);
    EffectReceipt receipt = EffectReceipt.ambiguity(started,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, AMBIGUOUS_MESSAGE), ambiguousAt, started.updatedAt());
    return commit(organizationId, started, ambiguous, receipt, null) == null
        ? new Ambiguity(ambiguous, ambiguousAt, started.updatedAt()) : null;
  }

  /**
   * One reconciliation attempt: calls {@code reconciler} once (if there is one and a request could be built) and
   * records what it established. {@code CONFIRMED} and {@code FAILED_SAFE} resolve the ambiguity (the receipt points at
   * it); no result, {@code UNRESOLVED}, an exception or a missing reconciler append an attempt receipt and leave the
   * execution {@code AMBIGUOUS}.
   *
   * @param lastReceiptAt the latest receipt instant of the execution, so that the new receipt is strictly later
   */
  EffectExecutionResult reconcile(OrganizationId organizationId, Ambiguity ambiguity, Instant lastReceiptAt,
      EffectReconciler reconciler, EffectReconciliationRequest request) {
    ReconciliationResult result = null;
    if (reconciler != null && request != null) {
      try {
        result = reconciler.reconcile(request);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.debug("reconciler of execution {} failed: {}", ambiguity.execution().executionId(),
            e.getClass().getName());
      }
    }
    EffectExecution ambiguous = ambiguity.execution();
    Instant floor = lastReceiptAt == null || lastReceiptAt.isBefore(ambiguity.recordedAt())
        ? ambiguity.recordedAt() : lastReceiptAt;
    Instant at = timestamps.next(floor);
    if (result == null || result.disposition() == ReconciliationDisposition.UNRESOLVED) {
      boolean noResult = result == null;
      EffectReceipt attempt = EffectReceipt.reconciliationAttempt(ambiguous,
          new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, noResult ? UNAVAILABLE_MESSAGE : UNRESOLVED_MESSAGE),
          at, ambiguity.dispatchStartedAt(), noResult ? RECONCILIATION_UNAVAILABLE : result.evidenceDigest());
      try {
        store.saveReceipt(organizationId, attempt);
      } catch (ConnectionStoreException e) {
        return current(organizationId, ambiguous, e);
      }
      listeners.receipt(attempt);
      return new EffectExecutionResult(EffectState.AMBIGUOUS, ambiguous.executionId(), null);
    }
    if (result.disposition() == ReconciliationDisposition.CONFIRMED) {
      ConfirmationEvidence evidence = store.newConfirmationEvidence(organizationId, ambiguous.executionId(), at,
          result.confirmationDigest());
      EffectReceipt receipt = EffectReceipt.resolution(ambiguous, EffectState.SUCCEEDED, null, at,
          ambiguity.dispatchStartedAt(), evidence.evidenceRef(), result.evidenceDigest(), ambiguity.recordedAt());
      return committed(organizationId, ambiguous, ambiguous.transitionTo(EffectState.SUCCEEDED, at), receipt,
          evidence);
    }
    EffectReceipt receipt = EffectReceipt.resolution(ambiguous, EffectState.FAILED_SAFE, result.normalizedError(), at,
        ambiguity.dispatchStartedAt(), null, result.evidenceDigest(), ambiguity.recordedAt());
    return committed(organizationId, ambiguous, ambiguous.transitionTo(EffectState.FAILED_SAFE, at), receipt,
        null);
  }

  /** Commits and notifies; {@code null} when committed, else the current state after another process moved on. */
  private @Nullable EffectExecutionResult commit(OrganizationId organizationId, EffectExecution from,
      EffectExecution to,
      EffectReceipt receipt, ConfirmationEvidence evidence) {
    try {
      store.commitOutcome(organizationId, to, receipt, evidence);
    } catch (ConnectionStoreException e) {
      return current(organizationId, from, e);
    }
    listeners.transition(to, from.state());
    listeners.receipt(receipt);
    return null;
  }

  private EffectExecutionResult committed(OrganizationId organizationId, EffectExecution from, EffectExecution to,
      EffectReceipt receipt, ConfirmationEvidence evidence) {
    EffectExecutionResult movedOn = commit(organizationId, from, to, receipt, evidence);
    return movedOn != null ? movedOn : new EffectExecutionResult(to.state(), to.executionId(), null);
  }

  /**
   * After a failed write: the execution's current state when another process moved it on from {@code expected};
   * otherwise the failure was real and is rethrown.
   */
  private EffectExecutionResult current(OrganizationId organizationId, EffectExecution expected,
      ConnectionStoreException failure) {
    EffectExecution stored;
    try {
      stored = store.getExecution(organizationId, expected.executionId()).orElse(null);
    } catch (RuntimeException readFailure) {
      failure.addSuppressed(readFailure);
      throw failure;
    }
    if (stored == null || stored.state() == expected.state()) {
      throw failure;
    }
    LOG.info("execution {} was moved on to {} by another process; its result stands",
        expected.executionId(), stored.state());
    return new EffectExecutionResult(stored.state(), stored.executionId(), null);
  }
}
