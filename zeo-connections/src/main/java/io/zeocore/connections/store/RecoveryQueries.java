package io.zeocore.connections.store;

import io.zeocore.connections.contract.EffectState;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The store's only cross-organization queries, for system sweeps and health: effects to recover (dispatches older
 * than a staleness by the database's own clock, then ambiguous effects, least recently looked at first), recovery
 * leases (also by the database's clock), counts of effects by state, and the store's reachability and schema
 * version. Only the leases write.
 */
final class RecoveryQueries {

  private final StoreDatabase database;
  private final Tables tables;
  private final @Nullable SqliteDatabase sqlite;
  private final String selectStaleDispatches;
  private final String selectAmbiguous;
  private final String countByState;
  private final String claimLease;
  private final String releaseLease;

  /** {@code sqlite} is the embedded file the store owns, or {@code null}. */
  RecoveryQueries(StoreDatabase database, Tables tables, @Nullable SqliteDatabase sqlite) {
    this.database = database;
    this.tables = tables;
    this.sqlite = sqlite;
    String effects = tables.qualify("executions");
    String receipts = tables.qualify("receipts");
    String attempts = "(SELECT count(*) FROM " + receipts + " r WHERE r.organization_id = e.organization_id"
        + " AND r.execution_id = e.execution_id AND r.reconciliation_attempt_evidence IS NOT NULL)";
    String lastReceipt = "(SELECT max(r.recorded_at) FROM " + receipts + " r"
        + " WHERE r.organization_id = e.organization_id AND r.execution_id = e.execution_id)";
    String candidateColumns = "SELECT " + EffectRecords.aliased("e", EffectRecords.EXECUTION_COLUMNS) + ", "
        + attempts + " AS attempts, " + lastReceipt + " AS last_receipt_at FROM " + effects + " e";
    // staleness by the database's clock on both sides (the dispatch clock, written in the claim transaction); an
    // effect claimed before schema version 4 has none and falls back to its updated_at
    String now = tables.sql().databaseNowMicros();
    String startedAt = "COALESCE(" + tables.sql().dispatchStartedAt() + ", e.updated_at)";
    selectStaleDispatches = candidateColumns + " LEFT JOIN " + tables.qualify("dispatch_clock") + " d"
        + " ON d.organization_id = e.organization_id AND d.execution_id = e.execution_id"
        + " WHERE e.state = 'DISPATCH_STARTED' AND " + startedAt + " < " + now + " - ?"
        + " ORDER BY " + startedAt + " LIMIT ?";
    String leases = tables.qualify("recovery_leases");
    claimLease = "INSERT INTO " + leases + " AS l (organization_id, execution_id, holder, expires_db_at)"
        + " VALUES (?, ?, ?, " + now + " + ?) ON CONFLICT (organization_id, execution_id) DO UPDATE"
        + " SET holder = excluded.holder, expires_db_at = excluded.expires_db_at"
        + " WHERE l.expires_db_at < " + now;
    releaseLease = "DELETE FROM " + leases + " WHERE organization_id = ? AND execution_id = ? AND holder = ?";
    selectAmbiguous = candidateColumns + " WHERE e.state = 'AMBIGUOUS'"
        + " ORDER BY last_receipt_at NULLS FIRST, e.updated_at LIMIT ?";
    countByState = "SELECT state, count(*) AS executions FROM " + effects + " GROUP BY state";
  }

  List<RecoveryCandidate> findCandidates(Duration dispatchStaleAfter, int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive");
    }
    if (dispatchStaleAfter == null || dispatchStaleAfter.isNegative()) {
      throw new IllegalArgumentException("dispatchStaleAfter must be zero or positive");
    }
    long staleMicros = micros(dispatchStaleAfter);
    return database.read("finding executions to recover failed", s -> {
      List<RecoveryCandidate> candidates = new ArrayList<>(s.list(selectStaleDispatches,
          RecoveryQueries::readCandidate, staleMicros, limit));
      if (candidates.size() < limit) {
        candidates.addAll(s.list(selectAmbiguous, RecoveryQueries::readCandidate, limit - candidates.size()));
      }
      return candidates;
    });
  }

  /**
   * Takes the recovery lease of one effect for {@code holder} until the database's clock passes now +
   * {@code lease}, in one short transaction: succeeds when nobody holds it or the previous lease expired.
   */
  boolean claimLease(String organizationId, String effectId, String holder, Duration lease) {
    long leaseMicros = micros(lease);
    return database.write("taking a recovery lease failed",
        s -> s.update(claimLease, organizationId, effectId, holder, leaseMicros) == 1);
  }

  /** Gives the lease back (only {@code holder}'s own; a taken-over lease is left alone). */
  void releaseLease(String organizationId, String effectId, String holder) {
    database.write("releasing a recovery lease failed",
        s -> s.update(releaseLease, organizationId, effectId, holder));
  }

  private static long micros(Duration duration) {
    try {
      return Math.multiplyExact(duration.getSeconds(), 1_000_000L) + duration.getNano() / 1_000;
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE / 4;
    }
  }

  /** Every state is present (zero when none). */
  Map<EffectState, Long> effectCountsByState() {
    Map<EffectState, Long> counts = new EnumMap<>(EffectState.class);
    for (EffectState state : EffectState.values()) {
      counts.put(state, 0L);
    }
    for (Map.Entry<EffectState, Long> count : database.read("counting executions failed",
        s -> s.list(countByState, row -> Map.entry(EffectState.valueOf(row.getString("state")),
            row.getLong("executions"))))) {
      counts.put(count.getKey(), count.getValue());
    }
    return Collections.unmodifiableMap(counts);
  }

  /** Never throws for an unreachable database: the failure is reported in the result. */
  StoreInfo info() {
    Dialect dialect = tables.dialect();
    Path file = sqlite == null ? null : sqlite.file();
    Map<String, String> modes = Map.of();
    try {
      if (sqlite != null) {
        modes = sqlite.fileModes();
      }
      Optional<String> version = database.read(ZeoCoreSchema.appliedVersion(tables));
      return new StoreInfo(dialect, tables.schema(), true, version.orElse(null), file, modes, null);
    } catch (SQLException | RuntimeException e) {
      String failure = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      return new StoreInfo(dialect, tables.schema(), false, null, file, modes, failure);
    }
  }

  private static RecoveryCandidate readCandidate(ResultSet row) throws SQLException {
    return new RecoveryCandidate(EffectRecords.readEffect(row), row.getInt("attempts"),
        Micros.readNullable(row, "last_receipt_at"));
  }
}
