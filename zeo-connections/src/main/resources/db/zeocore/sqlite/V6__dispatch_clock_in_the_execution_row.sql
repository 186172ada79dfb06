-- ZeoCore store, SQLite dialect, version 6 (issue 20): the dispatch clock in the execution row.
--
-- Version 4 kept when each execution reached DISPATCH_STARTED, by the database's clock, in a table of its own
-- (dispatch_clock), written by a trigger in the claim transaction: one more b-tree page in every claim commit, and on
-- a fast disk a commit costs about one page write per b-tree it touches. From this version the value is written into
-- the execution's own row, whose page the claim writes anyway:
--
--   executions.dispatch_started_db_at  when the execution reached DISPATCH_STARTED, epoch microseconds by the
--                                      database's clock; NULL before that.
--
-- The store sets it in the very statement that moves the execution to DISPATCH_STARTED, as an SQL expression of the
-- database's clock. The triggers below keep the rules of version 4 the database's own: the statement that enters
-- DISPATCH_STARTED must set it, to exactly that statement's clock (SQLite's 'now' is fixed within one statement,
-- triggers included); no other statement may set or change it; an execution is inserted without it.
--
-- dispatch_clock keeps the rows written before this version (append-only as before) and gets no new ones; recovery
-- reads the row's column first, then that table, then, for an execution claimed before version 4, updated_at.

ALTER TABLE executions ADD COLUMN dispatch_started_db_at INTEGER;

DROP TRIGGER executions_dispatch_clock_on_update;
DROP TRIGGER executions_dispatch_clock_on_insert;

CREATE TRIGGER executions_dispatch_clock_guard BEFORE UPDATE OF dispatch_started_db_at ON executions
WHEN NEW.dispatch_started_db_at IS NOT OLD.dispatch_started_db_at
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is append-only')
  WHERE OLD.dispatch_started_db_at IS NOT NULL;
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is written by the database when the dispatch starts')
  WHERE OLD.state IS 'DISPATCH_STARTED' OR NEW.state IS NOT 'DISPATCH_STARTED'
     OR NEW.dispatch_started_db_at IS NOT CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER);
END;

-- (a step the transition table does not allow is left to the update guard, which names that instead)
CREATE TRIGGER executions_dispatch_clock_required BEFORE UPDATE OF state ON executions
WHEN NEW.state = 'DISPATCH_STARTED' AND NEW.dispatch_started_db_at IS NULL
  AND EXISTS (SELECT 1 FROM execution_transitions WHERE from_state = OLD.state AND to_state = 'DISPATCH_STARTED')
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is written by the database when the dispatch starts');
END;

CREATE TRIGGER executions_dispatch_clock_not_inserted BEFORE INSERT ON executions
WHEN NEW.dispatch_started_db_at IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is written by the database when the dispatch starts');
END;
