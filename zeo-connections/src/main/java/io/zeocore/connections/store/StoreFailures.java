package io.zeocore.connections.store;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Classifies SQL failures. The schema's guard triggers (both dialects) raise {@code zeocore-conflict: <what>} for a
 * uniqueness conflict and {@code zeocore-rule: <what>} for a broken invariant; the database's own unique violations
 * are conflicts too ({@link SqlDialect#isUniqueViolation}), and on PostgreSQL they are given the words of the
 * constraint they name ({@link SqlDialect#constraintWords}). Messages handed out are the schema's own words, never
 * SQL text or values.
 */
final class StoreFailures {

  private static final Pattern GUARD = Pattern.compile("zeocore-(conflict|rule): ([^)\\n\"]+)");

  private StoreFailures() {}

  /** Whether {@code e} (or a cause) says that a key, identity or nonce is already taken. */
  static boolean isConflict(SqlDialect dialect, SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        if (dialect.isUniqueViolation(sql)) {
          return true;
        }
        String message = sql.getMessage();
        if (message != null && message.contains("zeocore-conflict: ")) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The schema's words for {@code e}: the guard trigger's, if a guard fired, else (PostgreSQL) those of the ZeoCore
   * unique constraint that a unique violation names.
   */
  static @Nullable String guardMessage(SqlDialect dialect, SQLException e) {
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
      if (t instanceof SQLException sql) {
        String words = dialect.constraintWords(sql);
        if (words != null) {
          return words;
        }
      }
    }
    return null;
  }

  /**
   * A {@link ConnectionStoreException} for {@code e}: the guard's words when a guard fired, else {@code fallback}. The
   * SQL exception is kept as the cause for operators; ZeoCore never copies a cause into records, receipts or events.
   */
  static ConnectionStoreException translate(SqlDialect dialect, SQLException e, String fallback) {
    String guard = guardMessage(dialect, e);
    return new ConnectionStoreException(guard != null ? guard : fallback, e);
  }
}
