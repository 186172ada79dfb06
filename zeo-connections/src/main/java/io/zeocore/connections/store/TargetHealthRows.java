package io.zeocore.connections.store;

import io.zeocore.execution.FailureKind;
import io.zeocore.execution.TargetHealthStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@link TargetHealthStore} of a {@link JdbcConnectionStore}: the {@code target_health} table (schema version 9),
 * every time by the database's clock. Each method is one short transaction of one or two statements; nothing here
 * is scoped to an organization (targets belong to the application, not to a tenant) and nothing carries provider
 * text.
 */
final class TargetHealthRows implements TargetHealthStore {

  private final StoreDatabase database;
  private final String select;
  private final String coolDown;
  private final String takeProbe;
  private final String exists;
  private final String reopenHeld;
  private final String reopenAny;
  private final String release;

  TargetHealthRows(StoreDatabase database, Tables tables) {
    this.database = database;
    String table = tables.qualify("target_health");
    String now = tables.sql().databaseNowMicros();
    select = "SELECT target_id, cause, reason, cooling_until - " + now + " AS cooling_left, probe_holder,"
        + " probe_until - " + now + " AS probe_left FROM " + table;
    coolDown = "INSERT INTO " + table + " AS h (target_id, cause, reason, cooling_until, probe_holder, probe_until)"
        + " VALUES (?, ?, ?, " + now + " + ?, NULL, NULL) ON CONFLICT (target_id) DO UPDATE SET"
        + " cause = CASE WHEN h.cooling_until < excluded.cooling_until THEN excluded.cause ELSE h.cause END,"
        + " reason = CASE WHEN h.cooling_until < excluded.cooling_until THEN excluded.reason ELSE h.reason END,"
        + " cooling_until = CASE WHEN h.cooling_until < excluded.cooling_until THEN excluded.cooling_until"
        + " ELSE h.cooling_until END, probe_holder = NULL, probe_until = NULL";
    takeProbe = "UPDATE " + table + " SET probe_holder = ?, probe_until = " + now + " + ? WHERE target_id = ?"
        + " AND cooling_until <= " + now + " AND (probe_holder IS NULL OR probe_until < " + now + ")";
    exists = "SELECT 1 FROM " + table + " WHERE target_id = ?";
    reopenHeld = "DELETE FROM " + table + " WHERE target_id = ? AND probe_holder = ?";
    reopenAny = "DELETE FROM " + table + " WHERE target_id = ?";
    release = "UPDATE " + table + " SET probe_holder = NULL, probe_until = NULL WHERE target_id = ?"
        + " AND probe_holder = ?";
  }

  @Override
  public List<Entry> read() {
    return database.read("reading target health failed", s -> s.list(select, TargetHealthRows::readEntry));
  }

  @Override
  public void coolDown(String targetId, Duration coolFor, FailureKind cause, CoolingReason reason) {
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(reason, "reason");
    long micros = micros(coolFor);
    database.writeWithoutResult("writing a target cooldown failed",
        s -> s.update(coolDown, targetId, cause.wireValue(), reason.wireValue(), micros));
  }

  @Override
  public boolean tryProbe(String targetId, String holder, Duration lease) {
    long micros = micros(lease);
    return database.write("taking a probe lease failed",
        s -> s.update(takeProbe, holder, micros, targetId) == 1 || !s.exists(exists, targetId));
  }

  @Override
  public void reopen(String targetId, @Nullable String holder) {
    if (holder == null) {
      database.writeWithoutResult("reopening a target failed", s -> s.update(reopenAny, targetId));
    } else {
      database.writeWithoutResult("reopening a target failed", s -> s.update(reopenHeld, targetId, holder));
    }
  }

  @Override
  public void releaseProbe(String targetId, String holder) {
    database.writeWithoutResult("releasing a probe lease failed", s -> s.update(release, targetId, holder));
  }

  private static Entry readEntry(ResultSet row) throws SQLException {
    long probeLeft = row.getLong("probe_left");
    String holder = row.getString("probe_holder");
    return new Entry(row.getString("target_id"), FailureKind.fromWireValue(row.getString("cause")),
        CoolingReason.fromWireValue(row.getString("reason")), Duration.ofNanos(row.getLong("cooling_left") * 1_000),
        holder != null && probeLeft > 0 ? holder : null, Duration.ofNanos(holder != null ? probeLeft * 1_000 : 0));
  }

  private static long micros(Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("a cooldown or lease must be positive, was " + duration);
    }
    try {
      return Math.max(1, Math.multiplyExact(duration.getSeconds(), 1_000_000L) + duration.getNano() / 1_000);
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE / 4;
    }
  }
}
