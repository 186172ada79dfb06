package io.zeocore.connections.effect;

import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.internal.Timestamps;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.EffectStore;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable steps after {@code DISPATCH_STARTED}, shared by {@link EffectOrchestrator} and {@link EffectRecovery}:
 * direct outcomes, ambiguity, and reconciliation attempts. Each step is one store transaction followed by the listener
 * calls. A compare-and-set conflict (another process moved the effect on first) is not an error: the step answers
 * with the effect's current state.
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
   * An {@code AMBIGUOUS} effect and the receipt that made it so.
   *
   * @param effect the {@code AMBIGUOUS} snapshot
   * @param recordedAt the ambiguity receipt's {@code recordedAt}: the pointer a resolution refers to
   * @param dispatchStartedAt when the provider was entered
   */
  record Ambiguity(EffectRecord effect, Instant recordedAt, Instant dispatchStartedAt) {}

  /** Commits a dispatcher's {@code CONFIRMED} or {@code FAILED_SAFE} result from {@code DISPATCH_STARTED}. */
  EffectResult commitDispatchResult(OrganizationId organizationId, EffectRecord started,
      EffectDispatchResult result) {
    Instant completedAt = timestamps.next(started.updatedAt());
    if (result.disposition() == DispatchDisposition.CONFIRMED) {
      ConfirmationEvidence evidence = store.newConfirmationEvidence(organizationId, started.effectId(),
          completedAt, Objects.requireNonNull(result.confirmationDigest(), "a CONFIRMED result carries its digest"));
      EffectRecord succeeded = started.transitionTo(EffectState.SUCCEEDED, completedAt);
      EffectReceipt receipt = EffectReceipt.succeeded(started, completedAt, started.updatedAt(),
          evidence.evidenceRef());
      return committed(organizationId, started, succeeded, receipt, evidence);
    }
    return failSafe(organizationId, started,
        Objects.requireNonNull(result.normalizedError(), "a FAILED_SAFE result carries its error"), completedAt);
  }

  /** Ends a {@code DISPATCH_STARTED} execution {@code FAILED_SAFE}: the dispatcher proved nothing reached the provider. */
  EffectResult commitNotStarted(OrganizationId organizationId, EffectRecord started, NormalizedError error) {
    return failSafe(organizationId, started, error, timestamps.next(started.updatedAt()));
  }

  private EffectResult failSafe(OrganizationId organizationId, EffectRecord started, NormalizedError error,
      Instant completedAt) {
    EffectRecord failed = started.transitionTo(EffectState.FAILED_SAFE, completedAt);
    EffectReceipt receipt = EffectReceipt.failedSafe(started, error, completedAt, started.updatedAt());
    return committed(organizationId, started, failed, receipt, null);
  }

  /**
   * {@code DISPATCH_STARTED → AMBIGUOUS} with its {@code RESULT_AMBIGUOUS} receipt, atomically.
   *
   * @return the ambiguity, or {@code null} when another process moved the effect on first (nothing written; read
   *     the effect for its state)
   */
  @Nullable Ambiguity recordAmbiguity(OrganizationId organizationId, EffectRecord started) {
    Instant ambiguousAt = timestamps.next(started.updatedAt());
    EffectRecord ambiguous = started.transitionTo(EffectState.AMBIGUOUS, ambiguousAt);
    EffectReceipt receipt = EffectReceipt.ambiguity(started,
        new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, AMBIGUOUS_MESSAGE), ambiguousAt, started.updatedAt());
    return commit(organizationId, started, ambiguous, receipt, null) == null
        ? new Ambiguity(ambiguous, ambiguousAt, started.updatedAt()) : null;
  }

  /**
   * One reconciliation attempt: calls {@code reconciler} once (if there is one and a request could be built) and
   * records what it established. {@code CONFIRMED} and {@code FAILED_SAFE} resolve the ambiguity (the receipt points at
   * it); no result, {@code UNRESOLVED}, an exception or a missing reconciler append an attempt receipt and leave the
   * effect {@code AMBIGUOUS}.
   *
   * @param lastReceiptAt the latest receipt instant of the effect, so that the new receipt is strictly later
   */
  EffectResult reconcile(OrganizationId organizationId, Ambiguity ambiguity, @Nullable Instant lastReceiptAt,
      @Nullable EffectReconciler reconciler, @Nullable EffectReconciliationRequest request) {
    ReconciliationResult result = null;
    if (reconciler != null && request != null) {
      try {
        result = reconciler.reconcile(request);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.debug("reconciler of execution {} failed: {}", ambiguity.effect().effectId(),
            e.getClass().getName());
      }
    }
    EffectRecord ambiguous = ambiguity.effect();
    Instant floor = lastReceiptAt == null || lastReceiptAt.isBefore(ambiguity.recordedAt())
        ? ambiguity.recordedAt() : lastReceiptAt;
    Instant at = timestamps.next(floor);
    if (result == null || result.disposition() == ReconciliationDisposition.UNRESOLVED) {
      boolean noResult = result == null;
      EffectReceipt attempt = EffectReceipt.reconciliationAttempt(ambiguous,
          new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, noResult ? UNAVAILABLE_MESSAGE : UNRESOLVED_MESSAGE),
          at, ambiguity.dispatchStartedAt(), result == null ? RECONCILIATION_UNAVAILABLE : result.evidenceDigest());
      try {
        store.saveReceipt(organizationId, attempt);
      } catch (ConnectionStoreException e) {
        return current(organizationId, ambiguous, e);
      }
      listeners.receipt(attempt);
      return new EffectResult(EffectState.AMBIGUOUS, ambiguous.effectId(), null);
    }
    if (result.disposition() == ReconciliationDisposition.CONFIRMED) {
      ConfirmationEvidence evidence = store.newConfirmationEvidence(organizationId, ambiguous.effectId(), at,
          Objects.requireNonNull(result.confirmationDigest(), "a CONFIRMED result carries its digest"));
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
  private @Nullable EffectResult commit(OrganizationId organizationId, EffectRecord from,
      EffectRecord to,
      EffectReceipt receipt, @Nullable ConfirmationEvidence evidence) {
    try {
      store.commitOutcome(organizationId, to, receipt, evidence);
    } catch (ConnectionStoreException e) {
      return current(organizationId, from, e);
    }
    listeners.transition(to, from.state());
    listeners.receipt(receipt);
    return null;
  }

  private EffectResult committed(OrganizationId organizationId, EffectRecord from, EffectRecord to,
      EffectReceipt receipt, @Nullable ConfirmationEvidence evidence) {
    EffectResult movedOn = commit(organizationId, from, to, receipt, evidence);
    return movedOn != null ? movedOn : new EffectResult(to.state(), to.effectId(), null);
  }

  /**
   * After a failed write: the effect's current state when another process moved it on from {@code expected};
   * otherwise the failure was real and is rethrown.
   */
  private EffectResult current(OrganizationId organizationId, EffectRecord expected,
      ConnectionStoreException failure) {
    EffectRecord stored;
    try {
      stored = store.getEffect(organizationId, expected.effectId()).orElse(null);
    } catch (RuntimeException readFailure) {
      failure.addSuppressed(readFailure);
      throw failure;
    }
    if (stored == null || stored.state() == expected.state()) {
      throw failure;
    }
    LOG.info("execution {} was moved on to {} by another process; its result stands",
        expected.effectId(), stored.state());
    return new EffectResult(stored.state(), stored.effectId(), null);
  }
}
