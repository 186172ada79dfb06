-- ZeoCore store, SQLite dialect, version 4 (issue 19): staleness by the database's clock and recovery leases.
--
-- dispatch_clock: when each execution reached DISPATCH_STARTED, by the DATABASE's clock (epoch microseconds), written
-- by the trigger below in the claim transaction. Recovery judges "dispatch older than dispatch-stale-after" against
-- the same clock in the same query, never by comparing the dispatching host's clock with the sweeping host's.
-- Append-only: one row per execution, never updated or deleted.
--
-- recovery_leases: which recovery sweeper currently reconciles an execution, until when (database clock). A sweeper
-- takes the lease in a short transaction before it reconciles and deletes it after; an expired lease (its holder died)
-- can be taken over. Mutable by design; it carries no history.

CREATE TABLE dispatch_clock (
  organization_id TEXT    NOT NULL,
  execution_id    TEXT    NOT NULL,
  started_db_at   INTEGER NOT NULL,
  PRIMARY KEY (organization_id, execution_id),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
);

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

CREATE TABLE recovery_leases (
  organization_id TEXT    NOT NULL,
  execution_id    TEXT    NOT NULL,
  holder          TEXT    NOT NULL,
  expires_db_at   INTEGER NOT NULL,
  PRIMARY KEY (organization_id, execution_id)
);
