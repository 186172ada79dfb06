package io.zeocore.connections.store;

import io.zeocore.connections.authorization.AuthorizationNonceLookup;
import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The store port of the effect orchestrator: {@link ConnectionStore} plus idempotent claims, history, confirmation
 * evidence, atomic outcomes and authorization nonces. Every method is organization-scoped.
 *
 * <p>Shape decisions (documented so the JDBC implementation and the orchestrator agree):
 * {@link #claimEffect} takes the ordered list of snapshots to write in the claim transaction, so that one
 * transaction claims the nonce and the idempotency identity and appends {@code CREATED} through
 * {@code DISPATCH_STARTED}: the first of the two durable commits of an effect (the second records the outcome). {@link #recordRefusal} persists a refusal in one transaction
 * without occupying the idempotency identity.
 */
public interface EffectStore extends ConnectionStore, AuthorizationNonceLookup {

  /** The execution of the idempotency identity (organization, connection, revision, operation, key), if any. */
  Optional<EffectRecord> getEffectByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey);

  /**
   * In one transaction: records {@code nonce} for the organization (its recorded instant is the first snapshot's
   * {@code createdAt}), inserts the effect and appends every snapshot to history. {@code snapshots} is non-empty,
   * starts at {@code CREATED}, keeps one identity, follows edges of {@link EffectState} with strictly increasing
   * {@code updatedAt}; the last one is the stored state.
   *
   * <p>If the nonce or the idempotency identity is already taken, nothing is written and the existing effect of
   * the same identity is returned with {@code claimed = false}; if there is none (the nonce was used by another
   * identity), {@link ConnectionStoreException} is thrown.
   */
  EffectClaim claimEffect(OrganizationId organizationId, String nonce, List<EffectRecord> snapshots);

  /**
   * {@link #claimEffect(OrganizationId, String, List)}, holding the connection the caller checked: the claim is
   * written only if the connection stored under {@code checked}'s id in the organization is still exactly
   * {@code checked} when the claim's transaction reads it; else nothing is written and
   * {@link ConnectionChangedException} is thrown (the caller reads and checks the connection again). The effect
   * orchestrator claims this way with the connection it last read, so that an effect needs no read of the connection
   * before its claim while nothing it checked can change unseen.
   *
   * <p>Implementations should read the connection inside the claim's own transaction, as {@link JdbcConnectionStore}
   * does. The default, for stores written before this method (ZeoCore 0.1), reads it with
   * {@link #getConnection} first and then claims: two steps, as the orchestrator did before, so a change committed
   * between them is not seen.
   *
   * @param checked the connection the caller's checks ran on; its id is the snapshots' connection id
   * @throws ConnectionChangedException if the stored connection is not {@code checked} (nothing written)
   */
  default EffectClaim claimEffect(OrganizationId organizationId, String nonce, List<EffectRecord> snapshots,
      Connection checked) {
    if (!getConnection(organizationId, checked.connectionId()).map(checked::equals).orElse(false)) {
      throw new ConnectionChangedException();
    }
    return claimEffect(organizationId, nonce, snapshots);
  }

  /** Every persisted snapshot of the execution, oldest first. */
  List<EffectRecord> getEffectHistory(OrganizationId organizationId, EffectId effectId);

  /** Mints an unpersisted evidence object with a fresh {@code zeo-evidence:v1:<uuid4>} ref. */
  ConfirmationEvidence newConfirmationEvidence(OrganizationId organizationId, EffectId effectId,
      Instant observedAt, String confirmationDigest);

  /** Mints and persists evidence (and its reference) for an existing execution, in one transaction. */
  ConfirmationEvidence saveConfirmationEvidence(OrganizationId organizationId, EffectId effectId,
      Instant observedAt, String confirmationDigest);

  Optional<ConfirmationEvidence> getConfirmationEvidence(OrganizationId organizationId,
      ConfirmationEvidenceRef evidenceRef);

  /**
   * In one transaction: persists {@code evidence} (if not {@code null}: an outcome without evidence passes
   * {@code null}), advances the effect to {@code effect} (compare-and-set on the stored state, identity kept, time monotonic), appends it to history and
   * appends {@code receipt}. The receipt's final state equals the effect's state; its evidence ref equals the
   * evidence's. Any conflict rolls back everything.
   */
  void commitOutcome(OrganizationId organizationId, EffectRecord effect, EffectReceipt receipt,
      @Nullable ConfirmationEvidence evidence);

  /**
   * Persists a refused effect in one transaction: its {@code CREATED} and {@code REFUSED} snapshots and the
   * {@code REFUSED} receipt. A refusal does not occupy the idempotency identity and does not consume the nonce:
   * sending the same refused authorization again records nothing new and must not fail.
   */
  void recordRefusal(OrganizationId organizationId, List<EffectRecord> snapshots, EffectReceipt receipt);

  /** Records a nonce outside a claim; fails with {@link ConnectionStoreException} if it was already used. */
  void recordAuthorizationNonce(OrganizationId organizationId, String nonce, Instant recordedAt);
}
