package io.zeocore.connections.store;

import io.zeocore.connections.contract.OrganizationId;
import java.sql.SQLException;
import java.time.Instant;

/**
 * One-use authorization nonces ({@code authorization_nonces}): the unique (organization, nonce) key decides every
 * claim, of an effect or a read, so both claims insert through {@link #insert} inside their own
 * transaction.
 */
final class NonceRecords {

  private final StoreDatabase database;
  private final String insertNonce;
  private final String selectNonce;

  NonceRecords(StoreDatabase database, Tables tables) {
    this.database = database;
    String nonces = tables.qualify("authorization_nonces");
    insertNonce = "INSERT INTO " + nonces + " (organization_id, nonce, recorded_at) VALUES (?, ?, ?)";
    selectNonce = "SELECT 1 FROM " + nonces + " WHERE organization_id = ? AND nonce = ?";
  }

  /** Inserts the nonce in the caller's transaction; a used nonce fails with a conflict. */
  void insert(SqlSession s, OrganizationId organizationId, String nonce, Instant recordedAt) throws SQLException {
    s.update(insertNonce, organizationId.value(), nonce, Micros.of(recordedAt));
  }

  boolean exists(OrganizationId organizationId, String nonce) {
    return database.read("reading the authorization nonce failed",
        s -> s.exists(selectNonce, organizationId.value(), nonce));
  }

  /** Records the nonce in its own transaction; "authorization nonce was already used" when it was. */
  void record(OrganizationId organizationId, String nonce, Instant recordedAt) {
    try {
      database.writeWithoutResult(s -> {
        insert(s, organizationId, nonce, recordedAt);
      });
    } catch (SQLException e) {
      throw database.isConflict(e) ? new ConnectionStoreException("authorization nonce was already used", e)
          : database.translate(e, "recording the authorization nonce failed");
    }
  }
}
