package io.zeocore.connections.store;

import io.zeocore.connections.authorization.AuthorizationNonceLookup;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadRecord;
import java.util.Optional;

/**
 * The store port of the read orchestrator: {@link ConnectionStore} plus read claims and their one receipt.
 * Every method is organization-scoped; nonces are shared with effects.
 */
public interface ReadStore extends ConnectionStore, AuthorizationNonceLookup {

  Optional<ReadRecord> getRead(OrganizationId organizationId, ReadId readId);

  /** The observation of the idempotency identity (organization, connection, revision, operation, key), if any. */
  Optional<ReadRecord> getReadByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey);

  /**
   * In one transaction: records {@code nonce} (at the record's {@code createdAt}) and inserts the {@code CLAIMED}
   * record. If the nonce or identity is taken, returns the existing record of the identity with {@code claimed =
   * false}, or throws {@link ConnectionStoreException} if there is none.
   */
  ReadClaim claimRead(OrganizationId organizationId, ReadRecord read, String nonce);

  /**
   * In one transaction: moves the {@code CLAIMED} record to its terminal state and inserts its one receipt. The
   * record's identity must be unchanged and match the receipt.
   */
  void commitRead(OrganizationId organizationId, ReadRecord read, ReadReceipt receipt);

  Optional<ReadReceipt> getReadReceipt(OrganizationId organizationId, ReadId readId);
}
