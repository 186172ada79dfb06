package io.zeocore.connections.store;

import io.zeocore.connections.ConnectionStoreException;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Classifies SQL failures. The schema's guard triggers raise {@code zeocore-conflict: <what>} for a uniqueness conflict
 * and {@code zeocore-rule: <what>} for a broken invariant; SQLite unique and primary-key violations and PostgreSQL's
 * SQLSTATE {@code 23505} are conflicts too. Messages handed out are the trigger's own words (constants of the
 * schema), never SQL text or values.
 */
final class StoreFailures {

  private static final Pattern GUARD = Pattern.compile("zeocore-(conflict|rule): ([^)\\n\"]+)");

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

  /** The guard trigger's words in {@code e}, if a guard fired. */
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
