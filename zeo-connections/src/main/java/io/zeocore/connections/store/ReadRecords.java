package io.zeocore.connections.store;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadArtifact;
import io.zeocore.connections.contract.ReadArtifactRef;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadRecord;
import io.zeocore.connections.contract.ReadState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Observations ({@code observations}: claimed, then completed once by compare-and-set from {@code CLAIMED}) and their
 * one receipt each ({@code observation_receipts}). Like an effect's, the claim is one transaction that inserts the
 * nonce and the record ({@link #claim}), and the completion is one transaction ({@link #commit}).
 */
final class ReadRecords {

  private static final String OBSERVATION_COLUMNS = "organization_id, observation_id, connection_id,"
      + " connector_revision, operation_id, authorization_id, idempotency_key, authorization_digest, request_digest,"
      + " state, created_at, completed_at";
  private static final String OBSERVATION_RECEIPT_COLUMNS = "organization_id, observation_id, connection_id,"
      + " final_state, request_digest, result_digest, inline_result, artifact_ref, artifact_content_sha256,"
      + " artifact_size_bytes, artifact_media_type, error_code, error_message, recorded_at";

  private final StoreDatabase database;
  private final NonceRecords nonces;
  private final String insertRead;
  private final String selectRead;
  private final String selectReadByIdentity;
  private final String completeRead;
  private final String insertReadReceipt;
  private final String selectReadReceipt;

  ReadRecords(StoreDatabase database, Tables tables, NonceRecords nonces) {
    this.database = database;
    this.nonces = nonces;
    String reads = tables.qualify("observations");
    String observationReceipts = tables.qualify("observation_receipts");
    insertRead = "INSERT INTO " + reads + " (" + OBSERVATION_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectRead = "SELECT " + OBSERVATION_COLUMNS + " FROM " + reads
        + " WHERE organization_id = ? AND observation_id = ?";
    selectReadByIdentity = "SELECT " + OBSERVATION_COLUMNS + " FROM " + reads
        + " WHERE organization_id = ? AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
        + " AND idempotency_key = ?";
    completeRead = "UPDATE " + reads + " SET state = ?, completed_at = ?"
        + " WHERE organization_id = ? AND observation_id = ? AND state = 'CLAIMED'" + EffectRecords.IDENTITY_MATCH;
    insertReadReceipt = "INSERT INTO " + observationReceipts + " (" + OBSERVATION_RECEIPT_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectReadReceipt = "SELECT " + OBSERVATION_RECEIPT_COLUMNS + " FROM " + observationReceipts
        + " WHERE organization_id = ? AND observation_id = ?";
  }

  Optional<ReadRecord> get(OrganizationId organizationId, ReadId readId) {
    return database.read("reading the observation failed", s -> s.first(selectRead,
        ReadRecords::readReadRecord, organizationId.value(), readId.value()));
  }

  Optional<ReadRecord> getByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey) {
    return database.read("reading the observation failed", s -> s.first(
        selectReadByIdentity, ReadRecords::readReadRecord, organizationId.value(),
        connectionId.value(), connectorRevision.value(), operationId.value(), idempotencyKey.value()));
  }

  /**
   * One transaction: the nonce and the {@code CLAIMED} read. A conflict (nonce or identity taken) rolls both
   * back and returns the stored read with {@code claimed = false}.
   */
  ReadClaim claim(OrganizationId organizationId, ReadRecord read, String nonce) {
    OrganizationScope.require(organizationId, read.organizationId(), "observation");
    if (read.state() != ReadState.CLAIMED) {
      throw new ConnectionStoreException("new observation must start CLAIMED");
    }
    if (nonce == null || nonce.isEmpty()) {
      throw new ConnectionStoreException("authorization nonce is required");
    }
    try {
      database.writeWithoutResult(s -> {
        nonces.insert(s, organizationId, nonce, read.createdAt());
        s.update(insertRead, organizationId.value(), read.readId().value(),
            read.connectionId().value(), read.connectorRevision().value(),
            read.operationId().value(), read.authorizationId().value(),
            read.idempotencyKey().value(), read.authorizationDigest(), read.requestDigest(),
            read.state().name(), Micros.of(read.createdAt()), null);
      });
      return new ReadClaim(read, true);
    } catch (SQLException e) {
      if (!database.isConflict(e)) {
        throw database.translate(e, "claiming the observation failed");
      }
      Optional<ReadRecord> existing = getByIdempotency(organizationId, read.connectionId(),
          read.connectorRevision(), read.operationId(), read.idempotencyKey());
      return new ReadClaim(existing.orElseThrow(() -> new ConnectionStoreException(
          "authorization nonce or observation identity was already used", e)), false);
    }
  }

  /**
   * One transaction: the compare-and-set from {@code CLAIMED} with the identity matched, then the receipt. When the
   * compare-and-set matches nothing, the stored row chooses the message and nothing is written.
   */
  void commit(OrganizationId organizationId, ReadRecord read, ReadReceipt receipt) {
    OrganizationScope.require(organizationId, read.organizationId(), "observation");
    OrganizationScope.require(organizationId, receipt.organizationId(), "observation receipt");
    if (read.state() == ReadState.CLAIMED) {
      throw new ConnectionStoreException("committed observation must be terminal");
    }
    if (!receipt.readId().equals(read.readId())) {
      throw new ConnectionStoreException("observation receipt identity mismatch");
    }
    if (!receipt.connectionId().equals(read.connectionId())) {
      throw new ConnectionStoreException("observation receipt connection mismatch");
    }
    if (!receipt.requestDigest().equals(read.requestDigest())) {
      throw new ConnectionStoreException("observation receipt request mismatch");
    }
    if (receipt.finalState() != read.state()) {
      throw new ConnectionStoreException("observation receipt state mismatch");
    }
    if (!receipt.recordedAt().equals(read.completedAt())) {
      throw new ConnectionStoreException("observation receipt must be recorded at completed_at");
    }
    String inline = receipt.inlineResult() == null ? null : StoreDocuments.writeInlineResult(receipt.inlineResult());
    ReadArtifact artifact = receipt.artifact();
    NormalizedError error = receipt.normalizedError();
    database.writeWithoutResult("committing the observation failed", s -> {
      int updated = s.update(completeRead, read.state().name(), Micros.of(receipt.recordedAt()),
          organizationId.value(), read.readId().value(), read.connectionId().value(),
          read.connectorRevision().value(), read.operationId().value(),
          read.authorizationId().value(), read.idempotencyKey().value(),
          read.authorizationDigest(), read.requestDigest(), Micros.of(read.createdAt()));
      if (updated != 1) {
        ReadRecord stored = s.first(selectRead, ReadRecords::readReadRecord,
            organizationId.value(), read.readId().value()).orElse(null);
        if (stored == null) {
          throw new ConnectionStoreException("observation claim does not exist");
        }
        if (stored.state() != ReadState.CLAIMED) {
          throw new ConnectionStoreException("observation is already terminal");
        }
        throw new ConnectionStoreException("observation identity is immutable");
      }
      s.update(insertReadReceipt, organizationId.value(), receipt.readId().value(),
          receipt.connectionId().value(), receipt.finalState().name(), receipt.requestDigest(),
          receipt.resultDigest(), inline, artifact == null ? null : artifact.artifactRef().value(),
          artifact == null ? null : artifact.contentSha256(), artifact == null ? null : artifact.sizeBytes(),
          artifact == null ? null : artifact.mediaType(), error == null ? null : error.code().name(),
          error == null ? null : error.message(), Micros.of(receipt.recordedAt()));
    });
  }

  Optional<ReadReceipt> receipt(OrganizationId organizationId, ReadId readId) {
    return database.read("reading the observation receipt failed", s -> s.first(
        selectReadReceipt, ReadRecords::readReadReceipt, organizationId.value(),
        readId.value()));
  }

  private static ReadRecord readReadRecord(ResultSet row) throws SQLException {
    return new ReadRecord(new ReadId(row.getString("observation_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        new ConnectorRevisionId(row.getString("connector_revision")), new OperationId(row.getString("operation_id")),
        new AuthorizationId(row.getString("authorization_id")),
        new IdempotencyKey(row.getString("idempotency_key")), row.getString("authorization_digest"),
        row.getString("request_digest"), ReadState.valueOf(row.getString("state")),
        Micros.read(row, "created_at"), Micros.readNullable(row, "completed_at"));
  }

  private static ReadReceipt readReadReceipt(ResultSet row) throws SQLException {
    String inline = row.getString("inline_result");
    String artifactRef = row.getString("artifact_ref");
    ReadArtifact artifact = artifactRef == null ? null
        : new ReadArtifact(new ReadArtifactRef(artifactRef), row.getString("artifact_content_sha256"),
            row.getLong("artifact_size_bytes"), row.getString("artifact_media_type"));
    return new ReadReceipt(new ReadId(row.getString("observation_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        ReadState.valueOf(row.getString("final_state")), row.getString("request_digest"),
        row.getString("result_digest"),
        inline == null ? null : StoreDocuments.parse(inline, Object.class, "inline result"),
        artifact, EffectRecords.readError(row), Micros.read(row, "recorded_at"));
  }
}
