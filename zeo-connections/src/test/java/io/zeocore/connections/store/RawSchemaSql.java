package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain-JDBC statements and assertions that {@link ZeoCoreSchemaTest} (SQLite) and {@link PostgresSchemaTest} share to
 * exercise the schema's own guarantees while bypassing the store. The SQL is the same on both dialects but for the
 * history SQLite's schema requires of the writer itself ({@link #historyInRow}); the caller's connection decides which
 * database (and, for PostgreSQL, which schema via its search path).
 */
final class RawSchemaSql {

  private RawSchemaSql() {}

  /**
   * An insert of effect {@code id} at CREATED (at 10); with the one-snapshot history where the schema keeps it in
   * the row ({@link #historyInRow}).
   */
  static String executionInsert(Connection raw, String id, String key, int holdsIdentity) throws SQLException {
    boolean history = historyInRow(raw);
    SqlDialect sqlite = SqliteDialect.INSTANCE;
    return "INSERT INTO executions (organization_id, execution_id, connection_id, connector_revision, operation_id,"
        + " authorization_id, idempotency_key, authorization_digest, request_digest, holds_identity, state, created_at,"
        + " updated_at, completed_at" + (history ? sqlite.historyInsertColumn() : "") + ") VALUES ('org', '" + id
        + "', 'c1', 'r1', 'op', 'a1', '" + key + "', 'ad', 'rd', " + holdsIdentity + ", 'CREATED', 10, 10, NULL"
        + (history ? sqlite.historyInsertValue("'CREATED'", "10", "NULL") : "") + ")";
  }

  /**
   * Whether {@code raw}'s effects keep their history in the row (SQLite from schema version 7), so that a raw
   * insert or state change must write it as the store does; not on PostgreSQL or an older SQLite schema.
   */
  static boolean historyInRow(Connection raw) throws SQLException {
    if (!raw.getMetaData().getURL().startsWith("jdbc:sqlite:")) {
      return false;
    }
    try (Statement statement = raw.createStatement(); ResultSet rows = statement.executeQuery(
        "SELECT 1 FROM pragma_table_info('executions') WHERE name = 'history'")) {
      return rows.next();
    }
  }

  static void insertEffect(Connection raw, String id, String key, int holdsIdentity) throws SQLException {
    exec(raw, executionInsert(raw, id, key, holdsIdentity));
  }

  /** Moves one execution from {@code from} to a non-terminal {@code to}. */
  static void advance(Connection raw, String id, String from, String to, long at) throws SQLException {
    advance(raw, id, from, to, at, null);
  }

  /**
   * Checks the rules both dialects enforce on inserted effects: the first state must be CREATED, an idempotency
   * identity and an effect id are unique (refused with {@code duplicateIdentity} and {@code duplicateId}), refused
   * effects (not holding the identity) may share it. Leaves e1 (holding k1), e3 and e4 (refusals of k1).
   */
  static void assertInsertedEffectRules(Connection raw, String duplicateIdentity, String duplicateId)
      throws SQLException {
    assertRefused(raw, executionInsert(raw, "e0", "k1", 1).replace("'CREATED'", "'PREPARED'"),
        "first persisted state must be CREATED");
    insertEffect(raw, "e1", "k1", 1);
    assertRefused(raw, executionInsert(raw, "e2", "k1", 1), duplicateIdentity);
    assertRefused(raw, executionInsert(raw, "e1", "k9", 1), duplicateId);
    insertEffect(raw, "e3", "k1", 0);
    insertEffect(raw, "e4", "k1", 0);
  }

  /**
   * Checks the rules both dialects enforce on updated effects: a state change outside the transition table, an
   * update that changes no state, a step back, an {@code updated_at} going back and a changed identity are refused.
   * Leaves e1 (holding k1) at AUTHORIZATION_VERIFIED (at 11).
   */
  static void assertUpdatedEffectRules(Connection raw) throws SQLException {
    insertEffect(raw, "e1", "k1", 1);
    assertRefused(raw, "UPDATE executions SET state = 'DISPATCH_STARTED', updated_at = 20 WHERE execution_id = 'e1'",
        "transition is not allowed");
    assertRefused(raw, "UPDATE executions SET updated_at = 20 WHERE execution_id = 'e1'",
        "transition is not allowed");
    advance(raw, "e1", "CREATED", "AUTHORIZATION_VERIFIED", 11);
    assertRefused(raw, "UPDATE executions SET state = 'CREATED', updated_at = 12 WHERE execution_id = 'e1'",
        "transition is not allowed");
    assertRefused(raw, "UPDATE executions SET state = 'PREPARED', updated_at = 5 WHERE execution_id = 'e1'",
        "updated_at must be monotonic");
    assertRefused(raw, "UPDATE executions SET state = 'PREPARED', updated_at = 12, request_digest = 'x'"
        + " WHERE execution_id = 'e1'", "execution identity is immutable");
  }

  /**
   * Effects e1 and e2 (keys k1, k2) moved step by step in turn from CREATED (at 10) to AMBIGUOUS (at 14), so that
   * a schema numbering history rows across effects (SQLite before version 5, PostgreSQL before version 6) gives
   * them alternating numbers: the fixture of the migration tests that must keep each effect's own order.
   */
  static void interleavedToAmbiguity(Connection raw) throws SQLException {
    insertEffect(raw, "e1", "k1", 1);
    insertEffect(raw, "e2", "k2", 1);
    for (String id : List.of("e1", "e2")) {
      advance(raw, id, "CREATED", "AUTHORIZATION_VERIFIED", 11);
    }
    for (String id : List.of("e1", "e2")) {
      advance(raw, id, "AUTHORIZATION_VERIFIED", "PREPARED", 12);
      advance(raw, id, "PREPARED", "DISPATCH_STARTED", 13);
      advance(raw, id, "DISPATCH_STARTED", "AMBIGUOUS", 14);
    }
  }

  /** Moves one freshly inserted (CREATED) execution through AUTHORIZATION_VERIFIED (at 11) to PREPARED (at 12). */
  static void advanceToPrepared(Connection raw, String id) throws SQLException {
    advance(raw, id, "CREATED", "AUTHORIZATION_VERIFIED", 11);
    advance(raw, id, "AUTHORIZATION_VERIFIED", "PREPARED", 12);
  }

  /** Moves one execution from {@code from} to {@code to}, asserting that exactly that row was updated. */
  static void advance(Connection raw, String id, String from, String to, long at, Long completedAt)
      throws SQLException {
    advance(raw, id, from, to, at, completedAt, "");
  }

  /**
   * {@link #advance(Connection, String, String, String, long, Long)} with {@code alsoSet} added to the {@code SET}
   * list (the dispatch clock that SQLite's schema version 6 requires of the step into {@code DISPATCH_STARTED}). On
   * SQLite the update also appends the new snapshot to the row's history where its schema keeps it there
   * ({@link #historyInRow}).
   */
  static void advance(Connection raw, String id, String from, String to, long at, Long completedAt, String alsoSet)
      throws SQLException {
    // a prepared statement's update count excludes rows written by triggers (a plain Statement's does not)
    try (PreparedStatement statement = raw.prepareStatement("UPDATE executions SET state = ?, updated_at = ?,"
        + " completed_at = ?" + (historyInRow(raw) ? SqliteDialect.INSTANCE.historyAppend("?1", "?2", "?3") : "")
        + alsoSet
        + " WHERE execution_id = ? AND state = ?")) {
      statement.setString(1, to);
      statement.setLong(2, at);
      statement.setObject(3, completedAt, Types.BIGINT);
      statement.setString(4, id);
      statement.setString(5, from);
      assertThat(statement.executeUpdate()).isEqualTo(1);
    }
  }

  static String receipt(String id, String connection, String state, long at, Long resolves) {
    String error = state.equals("AMBIGUOUS") ? "'RESULT_AMBIGUOUS'" : "'FAILED_SAFE'";
    return "INSERT INTO receipts (organization_id, execution_id, connection_id, final_state, error_code,"
        + " error_message, recorded_at, resolved_at, reconciliation_evidence, resolves_ambiguous_recorded_at) VALUES"
        + " ('org', '" + id + "', '" + connection + "', '" + state + "', " + error + ", 'm', " + at + ", "
        + (resolves == null ? "NULL, NULL, NULL" : at + ", 'ev', " + resolves) + ")";
  }

  /**
   * {@link #receipt} with the receipt's {@code sequence} given as the next one within its effect, as SQLite's
   * schema (version 5) requires of every receipt insert.
   */
  static String numberedReceipt(String id, String connection, String state, long at, Long resolves) {
    return receipt(id, connection, state, at, resolves)
        .replace("INSERT INTO receipts (", "INSERT INTO receipts (sequence, ")
        .replace("VALUES ('org'", "VALUES ((SELECT coalesce(max(sequence), 0) + 1 FROM receipts"
            + " WHERE organization_id = 'org' AND execution_id = '" + id + "'), 'org'");
  }

  /**
   * One row in each append-only table of the effect side: effect {@code e1} refused at 11 with its receipt, nonce
   * {@code n1}, evidence reference {@code ref1} with its confirmation (one row: SQLite schema version 8, PostgreSQL
   * version 7), connector revision {@code r1} (document {@code {}}). The receipt and the reference are numbered on
   * SQLite ({@link #numberedReceipt}).
   */
  static void insertAppendOnlyRows(Connection raw, Dialect dialect) throws SQLException {
    insertEffect(raw, "e1", "k1", 1);
    exec(raw, "INSERT INTO authorization_nonces VALUES ('org', 'n1', 10)");
    boolean sqlite = dialect == Dialect.SQLITE;
    exec(raw, "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref, observed_at,"
        + " confirmation_digest" + (sqlite ? ", sequence" : "") + ") VALUES ('org', 'e1', 'ref1', 10, '"
        + "a".repeat(64) + "'" + (sqlite ? ", 1" : "") + ")");
    exec(raw, "INSERT INTO connector_revisions VALUES ('org', 'r1', '{}')");
    advance(raw, "e1", "CREATED", "REFUSED", 11, 11L);
    String receipt = "INSERT INTO receipts (organization_id, execution_id, connection_id, final_state, error_code,"
        + " error_message, recorded_at) VALUES ('org', 'e1', 'c1', 'REFUSED', 'REQUEST_REFUSED', 'refused', 11)";
    exec(raw, dialect == Dialect.SQLITE ? receipt.replace("INSERT INTO receipts (", "INSERT INTO receipts (sequence, ")
        .replace("VALUES ('org'", "VALUES (1, 'org'") : receipt);
  }

  /**
   * An insert of read {@code id} (idempotency key {@code key}) in {@code state}, claimed at 10 and completed at
   * {@code completedAt}.
   */
  static String observationInsert(String id, String key, String state, Long completedAt) {
    return "INSERT INTO observations VALUES ('org', '" + id + "', 'c1', 'r1', 'op', 'a1', '" + key + "', 'd1', 'd2', '"
        + state + "', 10, " + (completedAt == null ? "NULL" : completedAt) + ")";
  }

  /** An insert of observation {@code id}'s CONFIRMED receipt (at 11) with its result digest and inline result. */
  static String confirmedReadReceipt(String id, String resultDigest, String inlineResult) {
    return "INSERT INTO observation_receipts (organization_id, observation_id, connection_id, final_state,"
        + " request_digest, result_digest, inline_result, recorded_at) VALUES ('org', '" + id + "', 'c1', 'CONFIRMED',"
        + " 'd2', '" + resultDigest + "', '" + inlineResult + "', 11)";
  }

  /** An insert of a FAILED_SAFE receipt (at 11) for observation o1. */
  static final String FAILED_SAFE_O1_RECEIPT = "INSERT INTO observation_receipts (organization_id, observation_id,"
      + " connection_id, final_state, request_digest, error_code, error_message, recorded_at) VALUES ('org', 'o1',"
      + " 'c1', 'FAILED_SAFE', 'd2', 'PROVIDER_UNAVAILABLE', 'x', 11)";

  static void exec(Connection raw, String sql) throws SQLException {
    try (Statement statement = raw.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Asserts that running {@code sql} fails with an {@link SQLException} whose message contains {@code message}. */
  static void assertRefused(Connection raw, String sql, String message) {
    assertThatThrownBy(() -> exec(raw, sql)).as(sql).isInstanceOf(SQLException.class).hasMessageContaining(message);
  }

  /** The first column of every row {@code sql} returns, as text. */
  static List<String> strings(Connection raw, String sql) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Statement statement = raw.createStatement(); var rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        values.add(rows.getString(1));
      }
    }
    return values;
  }
}
