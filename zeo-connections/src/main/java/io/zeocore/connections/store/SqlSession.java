package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A connection with small helpers for parameterized statements. On the embedded SQLite writer the prepared
 * statements are cached for the connection's life (one {@code sqlite3_prepare} per distinct SQL text, not per call);
 * on borrowed connections they are prepared and closed per call. Parameters are {@link String}, {@link Long},
 * {@link Integer}, {@link java.sql.Array} or {@code null}.
 */
final class SqlSession {

  private final Connection connection;
  private final @Nullable Map<String, PreparedStatement> cache;

  private SqlSession(Connection connection, @Nullable Map<String, PreparedStatement> cache) {
    this.connection = connection;
    this.cache = cache;
  }

  /** A session whose statements are kept open in {@code cache} (owned by the caller, used under its lock). */
  static SqlSession caching(Connection connection, Map<String, PreparedStatement> cache) {
    return new SqlSession(connection, cache);
  }

  /** A session that closes every statement after use. */
  static SqlSession plain(Connection connection) {
    return new SqlSession(connection, null);
  }

  Connection connection() {
    return connection;
  }

  /** Executes an INSERT, UPDATE, DELETE or a statement without result rows; returns the update count. */
  int update(String sql, @Nullable Object... args) throws SQLException {
    PreparedStatement statement = prepare(sql);
    boolean ran = false;
    try {
      bind(statement, args);
      int count = statement.executeUpdate();
      ran = true;
      return count;
    } finally {
      release(sql, statement, ran);
    }
  }

  /**
   * Executes {@code sql} once per argument list as one JDBC batch (on PostgreSQL one round trip for all of them) and
   * returns the update count of each, in order. A failing entry throws the database's own exception for it (the
   * {@link java.sql.BatchUpdateException}'s next exception when the driver reports one), so the schema's words survive.
   */
  int[] updateBatch(String sql, List<Object[]> argumentLists) throws SQLException {
    PreparedStatement statement = prepare(sql);
    boolean ran = false;
    try {
      for (Object[] args : argumentLists) {
        bind(statement, args);
        statement.addBatch();
      }
      try {
        int[] counts = statement.executeBatch();
        ran = true;
        return counts;
      } catch (java.sql.BatchUpdateException e) {
        SQLException cause = e.getNextException();
        if (cause != null && cause != e) {
          cause.addSuppressed(e);
          throw cause;
        }
        throw e;
      } finally {
        if (ran) {
          statement.clearBatch();
        }
      }
    } finally {
      release(sql, statement, ran);
    }
  }

  /** Executes a statement that returns no rows and whose update count is meaningless (BEGIN, COMMIT, PRAGMA). */
  void execute(String sql) throws SQLException {
    PreparedStatement statement = prepare(sql);
    boolean ran = false;
    try {
      statement.execute();
      ran = true;
    } finally {
      release(sql, statement, ran);
    }
  }

  /** The first row read by {@code reader}, or empty when there is none. */
  <T> Optional<T> first(String sql, RowReader<T> reader, @Nullable Object... args) throws SQLException {
    PreparedStatement statement = prepare(sql);
    boolean ran = false;
    try {
      bind(statement, args);
      Optional<T> value;
      try (ResultSet rows = statement.executeQuery()) {
        value = rows.next() ? Optional.of(reader.read(rows)) : Optional.empty();
      }
      ran = true;
      return value;
    } finally {
      release(sql, statement, ran);
    }
  }

  /** Every row, in result order. */
  <T> List<T> list(String sql, RowReader<T> reader, @Nullable Object... args) throws SQLException {
    PreparedStatement statement = prepare(sql);
    boolean ran = false;
    try {
      bind(statement, args);
      List<T> values = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          values.add(reader.read(rows));
        }
      }
      ran = true;
      return values;
    } finally {
      release(sql, statement, ran);
    }
  }

  /** Whether the query returns at least one row. */
  boolean exists(String sql, @Nullable Object... args) throws SQLException {
    return first(sql, row -> Boolean.TRUE, args).isPresent();
  }

  private PreparedStatement prepare(String sql) throws SQLException {
    if (cache == null) {
      return connection.prepareStatement(sql);
    }
    PreparedStatement statement = cache.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      cache.put(sql, statement);
    }
    return statement;
  }

  /**
   * After use: a plain session closes the statement; a caching one keeps it for the next call when it {@code ran}
   * without failing. A cached statement whose effect failed is dropped from the cache and closed, so that the next
   * call prepares it afresh (the driver may have finalized it: SQLite's does on some errors) and so that closing it
   * can never hide the failure being thrown.
   */
  private void release(String sql, PreparedStatement statement, boolean ran) throws SQLException {
    if (cache == null) {
      statement.close();
    } else if (ran) {
      statement.clearParameters();
    } else {
      cache.remove(sql, statement);
      try {
        statement.close();
      } catch (SQLException ignored) {
        // the failure being thrown is the one that matters
      }
    }
  }

  private static void bind(PreparedStatement statement, Object[] args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      int index = i + 1;
      if (arg == null) {
        statement.setNull(index, Types.NULL);
      } else if (arg instanceof String text) {
        statement.setString(index, text);
      } else if (arg instanceof Long number) {
        statement.setLong(index, number);
      } else if (arg instanceof Integer number) {
        statement.setInt(index, number);
      } else if (arg instanceof java.sql.Array array) {
        statement.setArray(index, array);
      } else {
        throw new IllegalArgumentException("unsupported sql parameter type " + arg.getClass().getName());
      }
    }
  }

  /** An SQL array of {@code type} (for example {@code text}, {@code bigint}) on this session's connection. */
  java.sql.Array array(String type, Object[] elements) throws SQLException {
    return connection.createArrayOf(type, elements);
  }

  /** A new statement cache for one connection. */
  static Map<String, PreparedStatement> newCache() {
    return new HashMap<>();
  }
}
