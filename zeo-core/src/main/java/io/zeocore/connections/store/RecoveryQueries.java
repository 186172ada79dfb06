package io.zeocore.connections.store;

import io.zeocore.connections.contract.EffectState;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The store's only cross-organization reads, for system sweeps and health: executions to recover (dispatches started
 * before a cut-off, then ambiguous executions, least recently looked at first), counts of executions by state, and
 * the store's reachability and schema version. Read-only.
 */
final class RecoveryQueries {

  private final StoreDatabase database;
  private final Tables tables;
  private final SqliteDatabase sqlite;
  private final String selectStaleDispatches;
  private final String selectAmbiguous;
  private final String countByState;

  /** {@code sqlite} is the embedded file the store owns, or {@code null}. */
  RecoveryQueries(StoreDatabase database, Tables tables, SqliteDatabase sqlite) {
    this.database = database;
    this.tables = tables;
    this.sqlite = sqlite;
    String executions = tables.qualify("executions");
    String receipts = tables.qualify("receipts");
    String attempts = "(SELECT count(*) FROM " + receipts + " r WHERE r.organization_id = e.organization_id"
        + " AND r.execution_id = e.execution_id AND r.reconciliation_attempt_evidence IS NOT NULL)";
    String lastReceipt = "(SELECT max(r.recorded_at) FROM " + receipts + " r"
        + " WHERE r.organization_id = e.organization_id AND r.execution_id = e.execution_id)";
    String candidateColumns = "SELECT " + ExecutionRecords.aliased("e", ExecutionRecords.EXECUTION_COLUMNS) + ", "
        + attempts + " AS attempts, " + lastReceipt + " AS last_receipt_at FROM " + executions + " e";
    selectStaleDispatches = candidateColumns + " WHERE e.state = 'DISPATCH_STARTED' AND e.updated_at < ?"
        + " ORDER BY e.updated_at LIMIT ?";
    selectAmbiguous = candidateColumns + " WHERE e.state = 'AMBIGUOUS'"
        + " ORDER BY last_receipt_at NULLS FIRST, e.updated_at LIMIT ?";
    countByState = "SELECT state, count(*) AS executions FROM " + executions + " GROUP BY state";
  }

  List<RecoveryCandidate> findCandidates(Instant dispatchStartedBefore, int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive");
    }
    return database.read("finding executions to recover failed", s -> {
      List<RecoveryCandidate> candidates = new ArrayList<>(s.list(selectStaleDispatches,
          RecoveryQueries::readCandidate, Micros.of(dispatchStartedBefore), limit));
      if (candidates.size() < limit) {
        candidates.addAll(s.list(selectAmbiguous, RecoveryQueries::readCandidate, limit - candidates.size()));
      }
      return candidates;
    });
  }

  /** Every state is present (zero when none). */
  Map<EffectState, Long> executionCountsByState() {
    Map<EffectState, Long> counts = new EnumMap<>(EffectState.class);
    for (EffectState state : EffectState.values()) {
      counts.put(state, 0L);
    }
    database.read("counting executions failed", s -> s.list(countByState, row -> {
      counts.put(EffectState.valueOf(row.getString("state")), row.getLong("executions"));
      return null;
    }));
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
    return new RecoveryCandidate(ExecutionRecords.readExecution(row), row.getInt("attempts"),
        Micros.read(row, "last_receipt_at"));
  }
}
