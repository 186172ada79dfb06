package io.zeocore.connections.store;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.ObservationArtifact;
import io.zeocore.connections.contract.ObservationArtifactRef;
import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.ObservationReceipt;
import io.zeocore.connections.contract.ObservationRecord;
import io.zeocore.connections.contract.ObservationState;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Observations ({@code observations}: claimed, then completed once by compare-and-set from {@code CLAIMED}) and their
 * one receipt each ({@code observation_receipts}). Like an execution's, the claim is one transaction that inserts the
 * nonce and the record ({@link #claim}), and the completion is one transaction ({@link #commit}).
 */
final class ObservationRecords {

  private static final String OBSERVATION_COLUMNS = "organization_id, observation_id, connection_id,"
      + " connector_revision, operation_id, authorization_id, idempotency_key, authorization_digest, request_digest,"
      + " state, created_at, completed_at";
  private static final String OBSERVATION_RECEIPT_COLUMNS = "organization_id, observation_id, connection_id,"
      + " final_state, request_digest, result_digest, inline_result, artifact_ref, artifact_content_sha256,"
      + " artifact_size_bytes, artifact_media_type, error_code, error_message, recorded_at";

  private final StoreDatabase database;
  private final NonceRecords nonces;
  private final String insertObservation;
  private final String selectObservation;
  private final String selectObservationByIdentity;
  private final String completeObservation;
  private final String insertObservationReceipt;
  private final String selectObservationReceipt;

  ObservationRecords(StoreDatabase database, Tables tables, NonceRecords nonces) {
    this.database = database;
    this.nonces = nonces;
    String observations = tables.qualify("observations");
    String observationReceipts = tables.qualify("observation_receipts");
    insertObservation = "INSERT INTO " + observations + " (" + OBSERVATION_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectObservation = "SELECT " + OBSERVATION_COLUMNS + " FROM " + observations
        + " WHERE organization_id = ? AND observation_id = ?";
    selectObservationByIdentity = "SELECT " + OBSERVATION_COLUMNS + " FROM " + observations
        + " WHERE organization_id = ? AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
        + " AND idempotency_key = ?";
    completeObservation = "UPDATE " + observations + " SET state = ?, completed_at = ?"
        + " WHERE organization_id = ? AND observation_id = ? AND state = 'CLAIMED'" + ExecutionRecords.IDENTITY_MATCH;
    insertObservationReceipt = "INSERT INTO " + observationReceipts + " (" + OBSERVATION_RECEIPT_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectObservationReceipt = "SELECT " + OBSERVATION_RECEIPT_COLUMNS + " FROM " + observationReceipts
        + " WHERE organization_id = ? AND observation_id = ?";
  }

  Optional<ObservationRecord> get(OrganizationId organizationId, ObservationId observationId) {
    return Optional.ofNullable(database.read("reading the observation failed", s -> s.first(selectObservation,
        ObservationRecords::readObservation, organizationId.value(), observationId.value())));
  }

  Optional<ObservationRecord> getByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey) {
    return Optional.ofNullable(database.read("reading the observation failed", s -> s.first(
        selectObservationByIdentity, ObservationRecords::readObservation, organizationId.value(),
        connectionId.value(), connectorRevision.value(), operationId.value(), idempotencyKey.value())));
  }

  /**
   * One transaction: the nonce and the {@code CLAIMED} observation. A conflict (nonce or identity taken) rolls both
   * back and returns the stored observation with {@code claimed = false}.
   */
  ObservationClaim claim(OrganizationId organizationId, ObservationRecord observation, String nonce) {
    OrganizationScope.require(organizationId, observation.organizationId(), "observation");
    if (observation.state() != ObservationState.CLAIMED) {
      throw new ConnectionStoreException("new observation must start CLAIMED");
    }
    if (nonce == null || nonce.isEmpty()) {
      throw new ConnectionStoreException("authorization nonce is required");
    }
    try {
      database.write(s -> {
        nonces.insert(s, organizationId, nonce, observation.createdAt());
        s.update(insertObservation, organizationId.value(), observation.observationId().value(),
            observation.connectionId().value(), observation.connectorRevision().value(),
            observation.operationId().value(), observation.authorizationId().value(),
            observation.idempotencyKey().value(), observation.authorizationDigest(), observation.requestDigest(),
            observation.state().name(), Micros.of(observation.createdAt()), null);
        return null;
      });
      return new ObservationClaim(observation, true);
    } catch (SQLException e) {
      if (!database.isConflict(e)) {
        throw database.translate(e, "claiming the observation failed");
      }
      Optional<ObservationRecord> existing = getByIdempotency(organizationId, observation.connectionId(),
          observation.connectorRevision(), observation.operationId(), observation.idempotencyKey());
      return new ObservationClaim(existing.orElseThrow(() -> new ConnectionStoreException(
          "authorization nonce or observation identity was already used", e)), false);
    }
  }

  /**
   * One transaction: the compare-and-set from {@code CLAIMED} with the identity matched, then the receipt. When the
   * compare-and-set matches nothing, the stored row chooses the message and nothing is written.
   */
  void commit(OrganizationId organizationId, ObservationRecord observation, ObservationReceipt receipt) {
    OrganizationScope.require(organizationId, observation.organizationId(), "observation");
    OrganizationScope.require(organizationId, receipt.organizationId(), "observation receipt");
    if (observation.state() == ObservationState.CLAIMED) {
      throw new ConnectionStoreException("committed observation must be terminal");
    }
    if (!receipt.observationId().equals(observation.observationId())) {
      throw new ConnectionStoreException("observation receipt identity mismatch");
    }
    if (!receipt.connectionId().equals(observation.connectionId())) {
      throw new ConnectionStoreException("observation receipt connection mismatch");
    }
    if (!receipt.requestDigest().equals(observation.requestDigest())) {
      throw new ConnectionStoreException("observation receipt request mismatch");
    }
    if (receipt.finalState() != observation.state()) {
      throw new ConnectionStoreException("observation receipt state mismatch");
    }
    if (!receipt.recordedAt().equals(observation.completedAt())) {
      throw new ConnectionStoreException("observation receipt must be recorded at completed_at");
    }
    String inline = receipt.inlineResult() == null ? null : StoreDocuments.writeInlineResult(receipt.inlineResult());
    ObservationArtifact artifact = receipt.artifact();
    NormalizedError error = receipt.normalizedError();
    database.write("committing the observation failed", s -> {
      int updated = s.update(completeObservation, observation.state().name(), Micros.of(observation.completedAt()),
          organizationId.value(), observation.observationId().value(), observation.connectionId().value(),
          observation.connectorRevision().value(), observation.operationId().value(),
          observation.authorizationId().value(), observation.idempotencyKey().value(),
          observation.authorizationDigest(), observation.requestDigest(), Micros.of(observation.createdAt()));
      if (updated != 1) {
        ObservationRecord stored = s.first(selectObservation, ObservationRecords::readObservation,
            organizationId.value(), observation.observationId().value());
        if (stored == null) {
          throw new ConnectionStoreException("observation claim does not exist");
        }
        if (stored.state() != ObservationState.CLAIMED) {
          throw new ConnectionStoreException("observation is already terminal");
        }
        throw new ConnectionStoreException("observation identity is immutable");
      }
      s.update(insertObservationReceipt, organizationId.value(), receipt.observationId().value(),
          receipt.connectionId().value(), receipt.finalState().name(), receipt.requestDigest(),
          receipt.resultDigest(), inline, artifact == null ? null : artifact.artifactRef().value(),
          artifact == null ? null : artifact.contentSha256(), artifact == null ? null : artifact.sizeBytes(),
          artifact == null ? null : artifact.mediaType(), error == null ? null : error.code().name(),
          error == null ? null : error.message(), Micros.of(receipt.recordedAt()));
      return null;
    });
  }

  Optional<ObservationReceipt> receipt(OrganizationId organizationId, ObservationId observationId) {
    return Optional.ofNullable(database.read("reading the observation receipt failed", s -> s.first(
        selectObservationReceipt, ObservationRecords::readObservationReceipt, organizationId.value(),
        observationId.value())));
  }

  private static ObservationRecord readObservation(ResultSet row) throws SQLException {
    return new ObservationRecord(new ObservationId(row.getString("observation_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        new ConnectorRevisionId(row.getString("connector_revision")), new OperationId(row.getString("operation_id")),
        new AuthorizationId(row.getString("authorization_id")),
        new IdempotencyKey(row.getString("idempotency_key")), row.getString("authorization_digest"),
        row.getString("request_digest"), ObservationState.valueOf(row.getString("state")),
        Micros.read(row, "created_at"), Micros.read(row, "completed_at"));
  }

  private static ObservationReceipt readObservationReceipt(ResultSet row) throws SQLException {
    String inline = row.getString("inline_result");
    String artifactRef = row.getString("artifact_ref");
    ObservationArtifact artifact = artifactRef == null ? null
        : new ObservationArtifact(new ObservationArtifactRef(artifactRef), row.getString("artifact_content_sha256"),
            row.getLong("artifact_size_bytes"), row.getString("artifact_media_type"));
    return new ObservationReceipt(new ObservationId(row.getString("observation_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        ObservationState.valueOf(row.getString("final_state")), row.getString("request_digest"),
        row.getString("result_digest"),
        inline == null ? null : StoreDocuments.parse(inline, Object.class, "inline result"),
        artifact, ExecutionRecords.readError(row), Micros.read(row, "recorded_at"));
  }
}
