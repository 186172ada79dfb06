package io.zeocore.connections.store;

import java.sql.SQLException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Classifies SQL failures. The schema's guard triggers raise {@code zeocore-conflict: <what>} for a uniqueness conflict
 * and {@code zeocore-rule: <what>} for a broken invariant; SQLite unique and primary-key violations and PostgreSQL's
 * SQLSTATE {@code 23505} are conflicts too. On PostgreSQL uniqueness is left to constraints alone (a trigger cannot see
 * a concurrent, uncommitted row), so a unique violation is given the words of the constraint it names (the names of
 * {@code db/zeocore/postgresql}). Messages handed out are the schema's own words, never SQL text or values.
 */
final class StoreFailures {

  private static final Pattern GUARD = Pattern.compile("zeocore-(conflict|rule): ([^)\\n\"]+)");

  /** PostgreSQL unique constraints and indexes of the ZeoCore schema, with the words the SQLite guards use. */
  private static final Map<String, String> UNIQUE_CONSTRAINTS = Map.ofEntries(
      Map.entry("connector_revisions_pkey", "connector revision is immutable"),
      Map.entry("executions_pkey", "execution id or idempotency identity already exists"),
      Map.entry("executions_idempotency_identity", "execution id or idempotency identity already exists"),
      Map.entry("execution_history_state_once", "history is append-only"),
      Map.entry("authorization_nonces_pkey", "authorization nonce was already used"),
      Map.entry("evidence_references_ref_once", "evidence reference already exists"),
      Map.entry("evidence_references_execution_ref", "evidence reference already exists"),
      Map.entry("confirmation_evidence_pkey", "evidence reference already exists"),
      Map.entry("receipts_recorded_at_once", "receipt timestamp already exists"),
      Map.entry("receipts_one_outcome", "outcome receipt already exists"),
      Map.entry("receipts_one_ambiguity", "ambiguity receipt already exists"),
      Map.entry("observations_pkey", "observation id or idempotency identity already exists"),
      Map.entry("observations_idempotency_identity", "observation id or idempotency identity already exists"),
      Map.entry("observation_receipts_pkey", "observation outcome already exists"));

  /** A constraint name as a whole word; PostgreSQL quotes it in every language it speaks. */
  private static final Pattern CONSTRAINT_NAME = Pattern.compile("\\b([a-z_]+)\\b");

  private StoreFailures() {}

  /** Whether {@code e} (or a cause) says that a key, identity or nonce is already taken. */
  static boolean isConflict(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        if ("23505".equals(sql.getSQLState())) {
          return true;
        }
        String message = sql.getMessage();
        if (message != null && (message.contains("SQLITE_CONSTRAINT_UNIQUE")
            || message.contains("SQLITE_CONSTRAINT_PRIMARYKEY") || message.contains("zeocore-conflict: "))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The schema's words for {@code e}: the guard trigger's, if a guard fired, else (PostgreSQL) those of the ZeoCore
   * unique constraint that a 23505 names.
   */
  static String guardMessage(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null) {
        Matcher matcher = GUARD.matcher(message);
        if (matcher.find()) {
          return matcher.group(2).trim();
        }
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && "23505".equals(sql.getSQLState()) && sql.getMessage() != null) {
        String words = uniqueConstraintWords(sql.getMessage());
        if (words != null) {
          return words;
        }
      }
    }
    return null;
  }

  /** Only the first line is read: the detail lines that follow quote the duplicate key's values. */
  private static String uniqueConstraintWords(String message) {
    int end = message.indexOf('\n');
    Matcher names = CONSTRAINT_NAME.matcher(end < 0 ? message : message.substring(0, end));
    while (names.find()) {
      String words = UNIQUE_CONSTRAINTS.get(names.group(1));
      if (words != null) {
        return words;
      }
    }
    return null;
  }

  /**
   * A {@link ConnectionStoreException} for {@code e}: the guard's words when a guard fired, else {@code fallback}. The
   * SQL exception is kept as the cause for operators; ZeoCore never copies a cause into records, receipts or events.
   */
  static ConnectionStoreException translate(SQLException e, String fallback) {
    String guard = guardMessage(e);
    return new ConnectionStoreException(guard != null ? guard : fallback, e);
  }
}
