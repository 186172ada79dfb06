package io.zeocore.connections.store;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A private schema {@code zeocore_test_<random>} in the local PostgreSQL test server (127.0.0.1:5432, database
 * {@code test}, user {@code postgres}, trust authentication), dropped with {@code CASCADE} by {@link #close()}.
 *
 * <p>The skip rule lives here and only here: when the server cannot be reached, {@link #create()} aborts the calling
 * test (a class's {@code @BeforeAll}: the whole class) as skipped, naming the reason; when the environment variable
 * {@value #REQUIRE_VARIABLE} is {@code true} (CI sets it), it fails instead.
 */
public final class PostgresTestSchema implements AutoCloseable {

  static final String REQUIRE_VARIABLE = "ZEOCORE_REQUIRE_POSTGRES";
  private static final String HOST = "127.0.0.1";
  private static final int PORT = 5432;
  private static final String DATABASE = "test";
  private static final String USER = "postgres";

  /** Every ZeoCore table that holds data (not the fixed transition table), for {@link #clear()}. */
  private static final List<String> DATA_TABLES = List.of("connections", "connector_revisions", "executions",
      "execution_history", "authorization_nonces", "evidence_references", "confirmation_evidence", "receipts",
      "observations", "observation_receipts");

  private final String name;
  private final DataSource admin;

  private PostgresTestSchema(String name) {
    this.name = name;
    this.admin = newDataSource();
  }

  /**
   * A new, not yet existing schema name on a reachable server (ZeoCore's migration creates the schema).
   * Skips or fails the caller when the server is unreachable, see the class comment.
   */
  public static PostgresTestSchema create() {
    try (Connection connection = newDataSource().getConnection()) {
      connection.isValid(2);
    } catch (SQLException e) {
      String reason = "PostgreSQL is not reachable at " + HOST + ":" + PORT + " (database " + DATABASE + ", user "
          + USER + "): " + e.getMessage();
      if ("true".equalsIgnoreCase(System.getenv(REQUIRE_VARIABLE))) {
        fail(reason + "; " + REQUIRE_VARIABLE + "=true requires it");
      }
      abort(reason + "; the PostgreSQL store tests are skipped (set " + REQUIRE_VARIABLE + "=true to fail instead)");
    }
    return new PostgresTestSchema("zeocore_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
  }

  /**
   * A new data source on the test database: each one stands for another application instance (its own physical
   * connections, no pool).
   */
  public static DataSource newDataSource() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setServerNames(new String[] {HOST});
    dataSource.setPortNumbers(new int[] {PORT});
    dataSource.setDatabaseName(DATABASE);
    dataSource.setUser(USER);
    dataSource.setConnectTimeout(2);
    dataSource.setLoginTimeout(2);
    dataSource.setApplicationName("zeocore-tests");
    return dataSource;
  }

  /** The JDBC URL of the test database (no credentials beyond the user name). */
  public static String jdbcUrl() {
    return "jdbc:postgresql://" + HOST + ":" + PORT + "/" + DATABASE;
  }

  public static String user() {
    return USER;
  }

  public String name() {
    return name;
  }

  /** A superuser connection for assertions that bypass the store. */
  public Connection connect() throws SQLException {
    return admin.getConnection();
  }

  /**
   * Empties every data table between tests of one class. The append-only triggers refuse TRUNCATE, so this runs with
   * {@code session_replication_role = replica}, which a superuser may set and under which ordinary triggers do not
   * fire: a test-only back door that no application connection has.
   */
  public void clear() {
    StringBuilder tables = new StringBuilder();
    for (String table : DATA_TABLES) {
      tables.append(tables.isEmpty() ? "" : ", ").append(name).append('.').append(table);
    }
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("SET LOCAL session_replication_role = replica");
      statement.execute("TRUNCATE " + tables + " RESTART IDENTITY");
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("clearing test schema " + name + " failed", e);
    }
  }

  /** Drops the schema and everything in it. */
  @Override
  public void close() {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("dropping test schema " + name + " failed", e);
    }
  }
}
