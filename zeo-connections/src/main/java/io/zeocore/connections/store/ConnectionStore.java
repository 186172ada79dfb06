package io.zeocore.connections.store;

import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OrganizationId;
import java.util.List;
import java.util.Optional;

/**
 * Persistence port for connections, connector revisions, effects, receipts and evidence references. Every method
 * takes the trusted {@link OrganizationId} as its own argument; reads never return another organization's records
 * (they return empty), writes of a record whose organization differs fail with {@link ConnectionStoreException}.
 * History, receipts and evidence are append-only: this port has no update or delete for them.
 *
 * <p>All methods are thread-safe in implementations; every write is one transaction.
 */
public interface ConnectionStore {

  /** Inserts or replaces the connection (connections are mutable). No admission check. */
  void saveConnection(OrganizationId organizationId, Connection connection);

  Optional<Connection> getConnection(OrganizationId organizationId, ConnectionId connectionId);

  /**
   * Stores an immutable revision. Saving an identical revision again is a no-op; saving a different revision under an
   * existing id fails ("connector revision is immutable").
   */
  void saveConnectorRevision(OrganizationId organizationId, ConnectorRevision revision);

  Optional<ConnectorRevision> getConnectorRevision(OrganizationId organizationId, ConnectorRevisionId revisionId);

  /**
   * Inserts (state must be {@code CREATED}) or advances an effect, and appends the snapshot to its history. An
   * advance must keep the identity, follow an edge of {@link EffectState} from the stored state (compare-and-set)
   * and not move {@code updatedAt} backwards.
   */
  void saveEffect(OrganizationId organizationId, EffectRecord effect);

  Optional<EffectRecord> getEffect(OrganizationId organizationId, EffectId effectId);

  /**
   * Appends a receipt. The effect must exist with the same connection and its current state must equal the
   * receipt's final state; an evidence ref must already be recorded for the effect; a resolution pointer must
   * match the {@code recordedAt} of a stored {@code AMBIGUOUS} receipt of the effect.
   */
  void saveReceipt(OrganizationId organizationId, EffectReceipt receipt);

  /** The execution's receipts in insertion order; empty for an unknown execution or another organization. */
  List<EffectReceipt> getReceiptsForEffect(OrganizationId organizationId, EffectId effectId);

  /** Records that {@code evidenceRef} belongs to the execution, which must exist in the organization. */
  void saveEvidenceReference(OrganizationId organizationId, EffectId effectId,
      ConfirmationEvidenceRef evidenceRef);

  /** The execution's evidence references in insertion order. */
  List<ConfirmationEvidenceRef> getEvidenceReferencesForEffect(OrganizationId organizationId,
      EffectId effectId);
}
