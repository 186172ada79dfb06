package io.zeocore.autoconfigure.connections;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.SQLException;
import org.flywaydb.core.api.FlywayException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A store URL of PostgreSQL without the PostgreSQL driver or Flyway's PostgreSQL module on the class path stops
 * start-up with a failure analysis naming what is missing and both artifacts. No PostgreSQL server is needed: the
 * check runs before any connection is opened.
 */
class PostgresStoreSupportFailureAnalyzerTests {

  private static final String DRIVER = "the PostgreSQL JDBC driver (org.postgresql:postgresql)";
  private static final String FLYWAY_MODULE = "Flyway's PostgreSQL module (org.flywaydb:flyway-database-postgresql)";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class))
      .withPropertyValues("zeocore.connections.store.url=jdbc:postgresql://127.0.0.1:1/app?password=url-secret",
          "zeocore.connections.store.username=zeocore", "zeocore.connections.store.password=property-secret",
          "zeocore.connections.recovery.enabled=false");

  private final PostgresStoreSupportFailureAnalyzer analyzer = new PostgresStoreSupportFailureAnalyzer();

  @Test
  void withoutTheDriverTheAnalysisNamesTheDriverAndTheActionNamesBothArtifacts() {
    contextRunner.withClassLoader(new FilteredClassLoader("org.postgresql")).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
      assertThat(analysis).isNotNull();
      assertThat(analysis.getDescription()).contains("ZeoCore's store is on PostgreSQL, but " + DRIVER
          + " is not on the class path").doesNotContain("flyway-database-postgresql");
      assertBothArtifactsInTheAction(analysis);
      assertNoSecretOrUrl(analysis);
    });
  }

  @Test
  void withoutFlywaysPostgresModuleTheAnalysisNamesTheModule() {
    contextRunner.withClassLoader(new FilteredClassLoader("org.flywaydb.database.postgresql")).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
      assertThat(analysis).isNotNull();
      assertThat(analysis.getDescription()).contains(FLYWAY_MODULE + " is not on the class path")
          .doesNotContain("org.postgresql:postgresql");
      assertBothArtifactsInTheAction(analysis);
      assertNoSecretOrUrl(analysis);
    });
  }

  @Test
  void withoutEitherTheAnalysisNamesBoth() {
    contextRunner.withClassLoader(new FilteredClassLoader("org.postgresql", "org.flywaydb.database.postgresql"))
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .isInstanceOf(PostgresStoreSupportMissingException.class);
          FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
          assertThat(analysis).isNotNull();
          assertThat(analysis.getDescription()).contains(DRIVER + " and " + FLYWAY_MODULE + " are not on the class "
              + "path");
          assertBothArtifactsInTheAction(analysis);
          assertNoSecretOrUrl(analysis);
        });
  }

  @TempDir
  Path temp;

  @Test
  void theEmbeddedStoreNeedsNeither() {
    new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader("org.postgresql", "org.flywaydb.database.postgresql"))
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("zeocore.db"),
            "zeocore.connections.recovery.enabled=false")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void driverManagersNoSuitableDriverForAPostgresUrlIsRecognizedWithoutRepeatingItsMessage() {
    // what DriverManager throws, wrapped as the store wraps it while reading its schema history
    SQLException noDriver = new SQLException("No suitable driver found for jdbc:postgresql://db/app?password=url-secret",
        "08001");
    FailureAnalysis analysis = analyzer.analyze(new BeanCreationException("zeoCoreConnectionStore",
        "creating the store failed", new IllegalStateException("reading ZeoCore's schema history failed: "
            + noDriver.getMessage(), noDriver)));
    assertThat(analysis).isNotNull();
    assertThat(analysis.getDescription()).contains(DRIVER + " is not on the class path");
    assertBothArtifactsInTheAction(analysis);
    assertNoSecretOrUrl(analysis);
  }

  @Test
  void flywaysUnsupportedDatabaseForPostgresIsRecognizedAsTheMissingModule() {
    FailureAnalysis analysis = analyzer.analyze(new IllegalStateException("ZeoCore schema migration failed",
        new FlywayException("Unsupported Database: PostgreSQL 16.4")));
    assertThat(analysis).isNotNull();
    assertThat(analysis.getDescription()).contains(FLYWAY_MODULE + " is not on the class path");
    assertBothArtifactsInTheAction(analysis);
  }

  @Test
  void otherConnectionFailuresAreNotAnalyzedAsAMissingArtifact() {
    assertThat(analyzer.analyze(new IllegalStateException("reading ZeoCore's schema history failed",
        new SQLException("Connection to 127.0.0.1:1 refused", "08001")))).isNull();
    assertThat(analyzer.analyze(new SQLException("No suitable driver found for jdbc:mysql://db/app", "08001")))
        .isNull();
    assertThat(analyzer.analyze(new FlywayException("Unsupported Database: MySQL 8.0"))).isNull();
  }

  private static void assertBothArtifactsInTheAction(FailureAnalysis analysis) {
    assertThat(analysis.getAction()).contains(
        "<dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId></dependency>",
        "<dependency><groupId>org.flywaydb</groupId><artifactId>flyway-database-postgresql</artifactId>"
            + "</dependency>");
  }

  private static void assertNoSecretOrUrl(FailureAnalysis analysis) {
    assertThat(analysis.getDescription() + analysis.getAction())
        .doesNotContain("url-secret", "property-secret", "jdbc:postgresql://");
  }
}
