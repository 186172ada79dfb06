package io.zeocore.connections;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The store port of the effect orchestrator: {@link ConnectionStore} plus idempotent claims, history, confirmation
 * evidence, atomic outcomes and authorization nonces. Every method is organization-scoped.
 *
 * <p>Shape decisions beyond the reference (documented so the JDBC implementation and the orchestrator agree):
 * {@link #claimExecution} takes the ordered list of snapshots to write in the claim transaction, so that one
 * transaction can claim the nonce and identity and append {@code CREATED} through {@code DISPATCH_STARTED} (DESIGN
 * §6); a one-element list is the reference's claim. {@link #recordRefusal} persists a refusal in one transaction
 * without occupying the idempotency identity.
 */
public interface BrokerExecutionStore extends ConnectionStore, AuthorizationNonceLookup {

  /** The execution of the idempotency identity (organization, connection, revision, operation, key), if any. */
  Optional<Execution> getExecutionByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey);

  /**
   * In one transaction: records {@code nonce} for the organization (its recorded instant is the first snapshot's
   * {@code createdAt}), inserts the execution and appends every snapshot to history. {@code snapshots} is non-empty,
   * starts at {@code CREATED}, keeps one identity, follows edges of {@link ExecutionState} with strictly increasing
   * {@code updatedAt}; the last one is the stored state.
   *
   * <p>If the nonce or the idempotency identity is already taken, nothing is written and the existing execution of
   * the same identity is returned with {@code claimed = false}; if there is none (the nonce was used by another
   * identity), {@link ConnectionStoreException} is thrown.
   */
  ExecutionClaim claimExecution(OrganizationId organizationId, String nonce, List<Execution> snapshots);

  /** Every persisted snapshot of the execution, oldest first. */
  List<Execution> getExecutionHistory(OrganizationId organizationId, ExecutionId executionId);

  /** Mints an unpersisted evidence object with a fresh {@code zeo-evidence:v1:<uuid4>} ref. */
  ConfirmationEvidence newConfirmationEvidence(OrganizationId organizationId, ExecutionId executionId,
      Instant observedAt, String confirmationDigest);

  /** Mints and persists evidence (and its reference) for an existing execution, in one transaction. */
  ConfirmationEvidence saveConfirmationEvidence(OrganizationId organizationId, ExecutionId executionId,
      Instant observedAt, String confirmationDigest);

  Optional<ConfirmationEvidence> getConfirmationEvidence(OrganizationId organizationId,
      ConfirmationEvidenceRef evidenceRef);

  /**
   * In one transaction: persists {@code evidence} (if not {@code null}), advances the execution to
   * {@code execution} (compare-and-set on the stored state, identity kept, time monotonic), appends it to history and
   * appends {@code receipt}. The receipt's final state equals the execution's state; its evidence ref equals the
   * evidence's. Any conflict rolls back everything.
   */
  void commitOutcome(OrganizationId organizationId, Execution execution, ExecutionReceipt receipt,
      ConfirmationEvidence evidence);

  /** {@link #commitOutcome(OrganizationId, Execution, ExecutionReceipt, ConfirmationEvidence)} without evidence. */
  default void commitOutcome(OrganizationId organizationId, Execution execution, ExecutionReceipt receipt) {
    commitOutcome(organizationId, execution, receipt, null);
  }

  /**
   * Persists a refused execution in one transaction: its {@code CREATED} and {@code REFUSED} snapshots and the
   * {@code REFUSED} receipt. A refusal does not occupy the idempotency identity and does not consume the nonce:
   * sending the same refused authorization again records nothing new and must not fail.
   */
  void recordRefusal(OrganizationId organizationId, List<Execution> snapshots, ExecutionReceipt receipt);

  /** Records a nonce outside a claim; fails with {@link ConnectionStoreException} if it was already used. */
  void recordAuthorizationNonce(OrganizationId organizationId, String nonce, Instant recordedAt);
}
