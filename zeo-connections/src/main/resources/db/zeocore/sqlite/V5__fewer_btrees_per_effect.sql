-- ZeoCore store, SQLite dialect, version 5 (issue 20): fewer b-trees written per effect.
--
-- A commit costs about one page write per b-tree it touches (each in the WAL, each fsynced), so an effect's two
-- commits cost what the b-trees they touch cost. Three append-only tables kept a rowid b-tree beside the keys they are
-- read and guarded by:
--   execution_history  rowid + UNIQUE (organization, execution, state)      -> one b-tree, keyed by execution
--   dispatch_clock     rowid + its primary key                              -> one b-tree
--   receipts           rowid + UNIQUE (organization, execution, recorded_at)
--                      + two partial unique indexes (one outcome, one ambiguity) -> one b-tree, keyed by execution
-- Each is now a WITHOUT ROWID table keyed by (organization_id, execution_id, sequence), sequence counting the
-- execution's own rows from 1 in the order they were written (the history's rows numbered by the triggers on
-- executions, receipts by the store's insert). The uniqueness rules the dropped indexes enforced are enforced by the
-- insert guards, which already checked every one of them with these messages: SQLite runs one write transaction at a
-- time on a database file, so a guard's check and the insert it guards cannot interleave with another writer.
-- Existing rows are copied, numbered in their old order. Five b-tree pages fewer per effect (two in the claim, three
-- in the outcome).
--
-- The triggers that write into a rebuilt table are dropped first and created again afterwards, so that no trigger
-- ever names a table that is missing.

DROP TRIGGER executions_history_on_insert;
DROP TRIGGER executions_history_on_update;
DROP TRIGGER executions_dispatch_clock_on_update;
DROP TRIGGER executions_dispatch_clock_on_insert;

-- execution_history ------------------------------------------------------------------------------------------------

CREATE TABLE execution_history_v5 (
  organization_id TEXT    NOT NULL,
  execution_id    TEXT    NOT NULL,
  sequence        INTEGER NOT NULL CHECK (sequence > 0),
  state           TEXT    NOT NULL,
  recorded_at     INTEGER NOT NULL,
  completed_at    INTEGER,
  PRIMARY KEY (organization_id, execution_id, sequence),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
) WITHOUT ROWID;

INSERT INTO execution_history_v5 (organization_id, execution_id, sequence, state, recorded_at, completed_at)
SELECT organization_id, execution_id,
       ROW_NUMBER() OVER (PARTITION BY organization_id, execution_id ORDER BY sequence),
       state, recorded_at, completed_at
FROM execution_history;

DROP TABLE execution_history;
ALTER TABLE execution_history_v5 RENAME TO execution_history;

CREATE TRIGGER execution_history_insert_guard BEFORE INSERT ON execution_history
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: history is append-only')
  WHERE EXISTS (SELECT 1 FROM execution_history
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND (sequence = NEW.sequence OR state = NEW.state));
  SELECT RAISE(ABORT, 'zeocore-rule: history must record the execution''s current snapshot')
  WHERE NOT EXISTS (SELECT 1 FROM executions
                    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                      AND state = NEW.state AND updated_at = NEW.recorded_at
                      AND completed_at IS NEW.completed_at);
END;

CREATE TRIGGER execution_history_no_update BEFORE UPDATE ON execution_history
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: history is append-only');
END;

CREATE TRIGGER execution_history_no_delete BEFORE DELETE ON execution_history
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: history is append-only');
END;

-- an inserted execution's snapshot is the first of its history
CREATE TRIGGER executions_history_on_insert AFTER INSERT ON executions
BEGIN
  INSERT INTO execution_history (organization_id, execution_id, sequence, state, recorded_at, completed_at)
  VALUES (NEW.organization_id, NEW.execution_id, 1, NEW.state, NEW.updated_at, NEW.completed_at);
END;

CREATE TRIGGER executions_history_on_update AFTER UPDATE ON executions
BEGIN
  INSERT INTO execution_history (organization_id, execution_id, sequence, state, recorded_at, completed_at)
  VALUES (NEW.organization_id, NEW.execution_id,
          (SELECT coalesce(max(sequence), 0) + 1 FROM execution_history
           WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id),
          NEW.state, NEW.updated_at, NEW.completed_at);
END;

-- dispatch_clock ---------------------------------------------------------------------------------------------------

CREATE TABLE dispatch_clock_v5 (
  organization_id TEXT    NOT NULL,
  execution_id    TEXT    NOT NULL,
  started_db_at   INTEGER NOT NULL,
  PRIMARY KEY (organization_id, execution_id),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
) WITHOUT ROWID;

INSERT INTO dispatch_clock_v5 (organization_id, execution_id, started_db_at)
SELECT organization_id, execution_id, started_db_at FROM dispatch_clock;

DROP TABLE dispatch_clock;
ALTER TABLE dispatch_clock_v5 RENAME TO dispatch_clock;

CREATE TRIGGER dispatch_clock_no_overwrite BEFORE INSERT ON dispatch_clock
WHEN EXISTS (SELECT 1 FROM dispatch_clock WHERE organization_id = NEW.organization_id
             AND execution_id = NEW.execution_id)
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is append-only');
END;

CREATE TRIGGER dispatch_clock_no_update BEFORE UPDATE ON dispatch_clock
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is append-only');
END;

CREATE TRIGGER dispatch_clock_no_delete BEFORE DELETE ON dispatch_clock
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is append-only');
END;

CREATE TRIGGER executions_dispatch_clock_on_update AFTER UPDATE OF state ON executions
WHEN NEW.state = 'DISPATCH_STARTED' AND OLD.state <> 'DISPATCH_STARTED'
BEGIN
  INSERT INTO dispatch_clock (organization_id, execution_id, started_db_at)
  VALUES (NEW.organization_id, NEW.execution_id, CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER));
END;

CREATE TRIGGER executions_dispatch_clock_on_insert AFTER INSERT ON executions
WHEN NEW.state = 'DISPATCH_STARTED'
BEGIN
  INSERT INTO dispatch_clock (organization_id, execution_id, started_db_at)
  VALUES (NEW.organization_id, NEW.execution_id, CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER));
END;

-- receipts ---------------------------------------------------------------------------------------------------------

-- Append-only outcome records. At most one terminal receipt and one AMBIGUOUS transition receipt per execution;
-- any number of AMBIGUOUS attempt receipts (those with reconciliation_attempt_evidence). provider_detail is never
-- persisted, so it has no column.
CREATE TABLE receipts_v5 (
  organization_id                 TEXT    NOT NULL,
  execution_id                    TEXT    NOT NULL,
  sequence                        INTEGER NOT NULL CHECK (sequence > 0),
  connection_id                   TEXT    NOT NULL,
  final_state                     TEXT    NOT NULL
    CHECK (final_state IN ('SUCCEEDED', 'FAILED_SAFE', 'REFUSED', 'AMBIGUOUS')),
  error_code                      TEXT,
  error_message                   TEXT,
  recorded_at                     INTEGER NOT NULL,
  dispatch_started_at             INTEGER,
  resolved_at                     INTEGER,
  confirmation_evidence_ref       TEXT,
  reconciliation_evidence         TEXT,
  resolves_ambiguous_recorded_at  INTEGER,
  reconciliation_attempt_evidence TEXT,
  CHECK ((error_code IS NULL) = (error_message IS NULL)),
  PRIMARY KEY (organization_id, execution_id, sequence),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id),
  FOREIGN KEY (organization_id, execution_id, confirmation_evidence_ref)
    REFERENCES evidence_references (organization_id, execution_id, evidence_ref)
) WITHOUT ROWID;

INSERT INTO receipts_v5 (organization_id, execution_id, sequence, connection_id, final_state, error_code,
  error_message, recorded_at, dispatch_started_at, resolved_at, confirmation_evidence_ref, reconciliation_evidence,
  resolves_ambiguous_recorded_at, reconciliation_attempt_evidence)
SELECT organization_id, execution_id,
       ROW_NUMBER() OVER (PARTITION BY organization_id, execution_id ORDER BY sequence),
       connection_id, final_state, error_code, error_message, recorded_at, dispatch_started_at, resolved_at,
       confirmation_evidence_ref, reconciliation_evidence, resolves_ambiguous_recorded_at,
       reconciliation_attempt_evidence
FROM receipts;

DROP TABLE receipts;
ALTER TABLE receipts_v5 RENAME TO receipts;

CREATE TRIGGER receipts_insert_guard BEFORE INSERT ON receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: receipt position already exists')
  WHERE EXISTS (SELECT 1 FROM receipts
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND sequence = NEW.sequence);
  SELECT RAISE(ABORT, 'zeocore-conflict: receipt timestamp already exists')
  WHERE EXISTS (SELECT 1 FROM receipts
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND recorded_at = NEW.recorded_at);
  SELECT RAISE(ABORT, 'zeocore-conflict: outcome receipt already exists')
  WHERE NEW.final_state <> 'AMBIGUOUS'
    AND EXISTS (SELECT 1 FROM receipts
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND final_state <> 'AMBIGUOUS');
  SELECT RAISE(ABORT, 'zeocore-conflict: ambiguity receipt already exists')
  WHERE NEW.final_state = 'AMBIGUOUS' AND NEW.reconciliation_attempt_evidence IS NULL
    AND EXISTS (SELECT 1 FROM receipts
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND final_state = 'AMBIGUOUS' AND reconciliation_attempt_evidence IS NULL);
  SELECT RAISE(ABORT, 'zeocore-rule: receipt execution does not exist')
  WHERE NOT EXISTS (SELECT 1 FROM executions
                    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id);
  SELECT RAISE(ABORT, 'zeocore-rule: receipt connection mismatch')
  WHERE (SELECT connection_id FROM executions
         WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id) IS NOT NEW.connection_id;
  SELECT RAISE(ABORT, 'zeocore-rule: receipt state does not match execution')
  WHERE (SELECT state FROM executions
         WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id) IS NOT NEW.final_state;
  SELECT RAISE(ABORT, 'zeocore-rule: receipt evidence reference lacks provenance')
  WHERE NEW.confirmation_evidence_ref IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM evidence_references
                    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                      AND evidence_ref = NEW.confirmation_evidence_ref);
  SELECT RAISE(ABORT, 'zeocore-rule: resolving receipt does not reference persisted ambiguity')
  WHERE NEW.resolves_ambiguous_recorded_at IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM receipts
                    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                      AND final_state = 'AMBIGUOUS' AND reconciliation_attempt_evidence IS NULL
                      AND recorded_at = NEW.resolves_ambiguous_recorded_at);
END;

CREATE TRIGGER receipts_no_update BEFORE UPDATE ON receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: receipts are append-only');
END;

CREATE TRIGGER receipts_no_delete BEFORE DELETE ON receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: receipts are append-only');
END;
