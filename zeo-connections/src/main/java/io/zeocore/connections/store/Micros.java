package io.zeocore.connections.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Instants as the store keeps them: epoch microseconds in a 64-bit integer column. */
final class Micros {

  private static final long PER_SECOND = 1_000_000L;

  private Micros() {}

  /** Epoch microseconds of {@code instant} (sub-microsecond digits are dropped; contract instants have none). */
  static long of(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), PER_SECOND), instant.getNano() / 1000);
  }

  /** {@code null} stays {@code null}. */
  static @Nullable Long ofNullable(@Nullable Instant instant) {
    return instant == null ? null : of(instant);
  }

  static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, PER_SECOND), Math.floorMod(micros, PER_SECOND) * 1000L);
  }

  /** The instant in {@code column}, which the schema declares NOT NULL. */
  static Instant read(ResultSet row, String column) throws SQLException {
    Instant value = readNullable(row, column);
    if (value == null) {
      throw new SQLException(column + " is NULL in a column the schema declares NOT NULL");
    }
    return value;
  }

  /** The instant in {@code column}, or {@code null} when the column is SQL NULL. */
  static @Nullable Instant readNullable(ResultSet row, String column) throws SQLException {
    long micros = row.getLong(column);
    return row.wasNull() ? null : instant(micros);
  }
}
