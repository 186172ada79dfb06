package io.zeocore.reliability;

import static org.junit.jupiter.api.Assertions.fail;

import io.zeocore.connections.store.JdbcConnectionStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The local PostgreSQL test server (127.0.0.1:5432, database {@code test}, user {@code postgres}, trust). When it
 * cannot be reached the PostgreSQL figures are skipped, unless {@code ZEOCORE_REQUIRE_POSTGRES=true} (CI), which fails
 * instead.
 */
public final class Pg {

  public static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

  private Pg() {}

  public static DataSource dataSource() {
    return dataSource("postgres");
  }

  public static DataSource dataSource(String user) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setServerNames(new String[] {"127.0.0.1"});
    dataSource.setPortNumbers(new int[] {5432});
    dataSource.setDatabaseName("test");
    dataSource.setUser(user);
    dataSource.setConnectTimeout(2);
    dataSource.setLoginTimeout(2);
    dataSource.setApplicationName("zeocore-reliability");
    return dataSource;
  }

  /** Skips (or, in CI, fails) the calling test when PostgreSQL is unreachable; records the skip in the report. */
  public static void require(String section) {
    try (Connection connection = dataSource().getConnection()) {
      connection.isValid(2);
    } catch (SQLException e) {
      String reason = "PostgreSQL unreachable at 127.0.0.1:5432 (" + e.getClass().getSimpleName() + ")";
      if ("true".equalsIgnoreCase(System.getenv("ZEOCORE_REQUIRE_POSTGRES"))) {
        fail(reason + "; ZEOCORE_REQUIRE_POSTGRES=true requires it");
      }
      Figures.skipped(section, reason);
      Assumptions.abort(reason);
    }
  }

  /** A fresh schema name (ZeoCore's migration creates it). */
  public static String newSchema() {
    return "zeocore_rel_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  /**
   * A store (another "instance": its own pool of at most 8 connections) on {@code schema}, migrating it if needed. The
   * pool is closed with the store's JVM (tests open few).
   */
  public static JdbcConnectionStore store(String schema) {
    return store(schema, dataSource());
  }

  public static JdbcConnectionStore store(String schema, DataSource unpooled) {
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setDataSource(unpooled);
    config.setMaximumPoolSize(8);
    config.setMinimumIdle(0);
    config.setIdleTimeout(10_000);
    com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config);
    POOLS.add(pool);
    return JdbcConnectionStore.builder().dataSource(pool, io.zeocore.connections.store.Dialect.POSTGRESQL)
        .schema(schema).build();
  }

  private static final java.util.List<com.zaxxer.hikari.HikariDataSource> POOLS =
      java.util.Collections.synchronizedList(new java.util.ArrayList<>());

  /** Closes every pool opened so far (before dropping schemas, so no session holds them). */
  public static void closePools() {
    synchronized (POOLS) {
      POOLS.forEach(com.zaxxer.hikari.HikariDataSource::close);
      POOLS.clear();
    }
  }

  public static void drop(String schema) {
    closePools();
    try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("dropping " + schema + " failed", e);
    }
  }
}
