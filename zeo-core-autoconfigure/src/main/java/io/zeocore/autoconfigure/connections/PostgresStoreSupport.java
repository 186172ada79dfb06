package io.zeocore.autoconfigure.connections;

import java.util.ArrayList;
import java.util.List;
import org.springframework.util.ClassUtils;

/**
 * What a store on PostgreSQL needs on the application's class path besides ZeoCore: the PostgreSQL JDBC driver, which
 * opens the store's connections, and Flyway's PostgreSQL module, which migrates ZeoCore's schema (Flyway's core
 * supports no PostgreSQL on its own).
 */
enum PostgresStoreSupport {

  /** The PostgreSQL JDBC driver. */
  DRIVER("the PostgreSQL JDBC driver", "org.postgresql", "postgresql", "org.postgresql.Driver"),

  /** Flyway's PostgreSQL support, which ZeoCore's private Flyway needs to migrate its schema there. */
  FLYWAY_MODULE("Flyway's PostgreSQL module", "org.flywaydb", "flyway-database-postgresql",
      "org.flywaydb.database.postgresql.PostgreSQLDatabaseType");

  private final String description;
  private final String groupId;
  private final String artifactId;
  private final String className;

  PostgresStoreSupport(String description, String groupId, String artifactId, String className) {
    this.description = description;
    this.groupId = groupId;
    this.artifactId = artifactId;
    this.className = className;
  }

  /** What it is, in words. */
  String description() {
    return description;
  }

  /** Its Maven coordinates, {@code groupId:artifactId}. */
  String coordinates() {
    return groupId + ":" + artifactId;
  }

  /** The Maven dependency to add (its version comes from Spring Boot's dependency management). */
  String dependency() {
    return "<dependency><groupId>" + groupId + "</groupId><artifactId>" + artifactId + "</artifactId></dependency>";
  }

  /** What {@code classLoader} lacks, in declaration order. */
  static List<PostgresStoreSupport> missing(ClassLoader classLoader) {
    List<PostgresStoreSupport> missing = new ArrayList<>();
    for (PostgresStoreSupport support : values()) {
      if (!ClassUtils.isPresent(support.className, classLoader)) {
        missing.add(support);
      }
    }
    return missing;
  }
}
