package io.zeocore.connections.store;

import io.zeocore.connections.authorization.AuthorizationNonceLookup;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.ObservationReceipt;
import io.zeocore.connections.contract.ObservationRecord;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import java.util.Optional;

/**
 * The store port of the observation orchestrator: {@link ConnectionStore} plus read claims and their one receipt.
 * Every method is organization-scoped; nonces are shared with effects.
 */
public interface ObservationStore extends ConnectionStore, AuthorizationNonceLookup {

  Optional<ObservationRecord> getObservation(OrganizationId organizationId, ObservationId observationId);

  /** The observation of the idempotency identity (organization, connection, revision, operation, key), if any. */
  Optional<ObservationRecord> getObservationByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey);

  /**
   * In one transaction: records {@code nonce} (at the record's {@code createdAt}) and inserts the {@code CLAIMED}
   * record. If the nonce or identity is taken, returns the existing record of the identity with {@code claimed =
   * false}, or throws {@link ConnectionStoreException} if there is none.
   */
  ObservationClaim claimObservation(OrganizationId organizationId, ObservationRecord observation, String nonce);

  /**
   * In one transaction: moves the {@code CLAIMED} record to its terminal state and inserts its one receipt. The
   * record's identity must be unchanged and match the receipt.
   */
  void commitObservation(OrganizationId organizationId, ObservationRecord observation, ObservationReceipt receipt);

  Optional<ObservationReceipt> getObservationReceipt(OrganizationId organizationId, ObservationId observationId);
}
