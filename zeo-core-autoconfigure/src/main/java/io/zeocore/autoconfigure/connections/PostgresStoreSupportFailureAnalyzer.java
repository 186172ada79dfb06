package io.zeocore.autoconfigure.connections;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a store on PostgreSQL that cannot start because the PostgreSQL JDBC driver
 * ({@code org.postgresql:postgresql}) or Flyway's PostgreSQL module ({@code org.flywaydb:flyway-database-postgresql})
 * is not on the class path. It recognizes ZeoCore's own check ({@link PostgresStoreSupportMissingException}) and, for
 * a store built another way, the failures themselves: {@link java.sql.DriverManager}'s "No suitable driver" (SQL state
 * {@code 08001}) for a {@code jdbc:postgresql:} URL, and Flyway's "Unsupported Database: PostgreSQL" or "No database
 * found to handle jdbc:postgresql:". The report names what is missing and both artifacts; it never repeats the
 * exception's message, which holds the URL.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
class PostgresStoreSupportFailureAnalyzer implements FailureAnalyzer {

  private static final String ZEOCORE_FLYWAY_CHECK = "ZeoCore's PostgreSQL store needs org.flywaydb:"
      + "flyway-database-postgresql";

  @Override
  public @Nullable FailureAnalysis analyze(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      List<PostgresStoreSupport> missing = missing(cause);
      if (!missing.isEmpty()) {
        return analysis(missing, cause);
      }
    }
    return null;
  }

  private static List<PostgresStoreSupport> missing(Throwable cause) {
    if (cause instanceof PostgresStoreSupportMissingException missingSupport) {
      return missingSupport.missing();
    }
    String message = cause.getMessage() != null ? cause.getMessage() : "";
    List<PostgresStoreSupport> missing = new ArrayList<>();
    if (cause instanceof SQLException sql && "08001".equals(sql.getSQLState())
        && message.startsWith("No suitable driver") && message.toLowerCase(Locale.ROOT).contains("jdbc:postgresql:")) {
      missing.add(PostgresStoreSupport.DRIVER);
    } else if (isFlywayException(cause) && (message.startsWith("Unsupported Database: PostgreSQL")
        || message.toLowerCase(Locale.ROOT).startsWith("no database found to handle jdbc:postgresql:"))) {
      missing.add(PostgresStoreSupport.FLYWAY_MODULE);
    } else if (cause instanceof IllegalStateException && message.startsWith(ZEOCORE_FLYWAY_CHECK)) {
      missing.add(PostgresStoreSupport.FLYWAY_MODULE);
    }
    return missing;
  }

  /** Flyway is optional here: its exception is recognized by name. */
  private static boolean isFlywayException(Throwable cause) {
    for (Class<?> type = cause.getClass(); type != null; type = type.getSuperclass()) {
      if (type.getName().equals("org.flywaydb.core.api.FlywayException")) {
        return true;
      }
    }
    return false;
  }

  private static FailureAnalysis analysis(List<PostgresStoreSupport> missing, Throwable cause) {
    String what = missing.stream().map(support -> support.description() + " (" + support.coordinates() + ")")
        .collect(Collectors.joining(" and "));
    String description = "ZeoCore's store is on PostgreSQL, but " + what + (missing.size() == 1 ? " is" : " are")
        + " not on the class path. A store on PostgreSQL needs both: the driver opens its connections, and "
        + "Flyway's PostgreSQL module lets ZeoCore migrate its schema (Flyway's core has no PostgreSQL support).";
    String action = "Add both to the application's dependencies (Spring Boot's dependency management provides the "
        + "versions):" + System.lineSeparator() + System.lineSeparator()
        + "    " + PostgresStoreSupport.DRIVER.dependency() + System.lineSeparator()
        + "    " + PostgresStoreSupport.FLYWAY_MODULE.dependency() + System.lineSeparator() + System.lineSeparator()
        + "(Gradle: runtimeOnly '" + PostgresStoreSupport.DRIVER.coordinates() + "' and runtimeOnly '"
        + PostgresStoreSupport.FLYWAY_MODULE.coordinates() + "'), or point zeocore.connections.store elsewhere "
        + "(the embedded SQLite file needs neither).";
    return new FailureAnalysis(description, action, cause);
  }
}
