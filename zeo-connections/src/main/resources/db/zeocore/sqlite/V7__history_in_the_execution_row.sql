-- ZeoCore store, SQLite dialect, version 7 (issue 20): the execution history in the execution row.
--
-- Until this version every snapshot an execution had was a row of execution_history, inserted by a trigger on
-- executions: one more b-tree page in every claim and every outcome commit, and on a fast disk a commit costs about
-- one page write per b-tree it touches. States never repeat within an execution, so its history is short (eight
-- snapshots at the most) and now lives in the execution's own row, whose page every state change writes anyway:
--
--   executions.history  a JSON array of the execution's snapshots in the order they were taken, each
--                       [state, updated_at, completed_at] (epoch microseconds; completed_at null until terminal).
--
-- The store writes it in the same statement as the snapshot itself: an insert sets the first element, every
-- compare-and-set appends one. The schema keeps the rules of execution_history its own: an inserted execution's
-- history is exactly its snapshot, and every update must append exactly the new snapshot to the history it had
-- (so nothing is ever rewritten, removed or reordered). The update guard of version 1 is restated below with that
-- rule as its last check, and the two dispatch-clock triggers of version 6 after it (SQLite runs the triggers of one
-- event newest first), so that every earlier rule still names what is wrong before the history rule does.
--
-- The histories written before this version are copied into the column, in their order, and the table is dropped.

ALTER TABLE executions ADD COLUMN history TEXT;

DROP TRIGGER executions_history_on_insert;
DROP TRIGGER executions_history_on_update;
DROP TRIGGER executions_update_guard;
DROP TRIGGER executions_dispatch_clock_guard;
DROP TRIGGER executions_dispatch_clock_required;

UPDATE executions
SET history = coalesce(
  (SELECT json_group_array(json_array(h.state, h.recorded_at, h.completed_at) ORDER BY h.sequence)
   FROM execution_history h
   WHERE h.organization_id = executions.organization_id AND h.execution_id = executions.execution_id),
  json_array(json_array(state, updated_at, completed_at)));

DROP TRIGGER execution_history_insert_guard;
DROP TRIGGER execution_history_no_update;
DROP TRIGGER execution_history_no_delete;
DROP TABLE execution_history;

CREATE TRIGGER executions_update_guard BEFORE UPDATE ON executions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: execution identity is immutable')
  WHERE NEW.organization_id IS NOT OLD.organization_id
     OR NEW.execution_id IS NOT OLD.execution_id
     OR NEW.connection_id IS NOT OLD.connection_id
     OR NEW.connector_revision IS NOT OLD.connector_revision
     OR NEW.operation_id IS NOT OLD.operation_id
     OR NEW.authorization_id IS NOT OLD.authorization_id
     OR NEW.idempotency_key IS NOT OLD.idempotency_key
     OR NEW.authorization_digest IS NOT OLD.authorization_digest
     OR NEW.request_digest IS NOT OLD.request_digest
     OR NEW.holds_identity IS NOT OLD.holds_identity
     OR NEW.created_at IS NOT OLD.created_at;
  SELECT RAISE(ABORT, 'zeocore-rule: transition is not allowed')
  WHERE NOT EXISTS (SELECT 1 FROM execution_transitions WHERE from_state = OLD.state AND to_state = NEW.state);
  SELECT RAISE(ABORT, 'zeocore-rule: updated_at must be monotonic')
  WHERE NEW.updated_at < OLD.updated_at;
  SELECT RAISE(ABORT, 'zeocore-rule: history must append the execution''s new snapshot')
  WHERE NEW.history IS NOT json_insert(OLD.history, '$[#]',
                                       json_array(NEW.state, NEW.updated_at, NEW.completed_at));
END;

CREATE TRIGGER executions_dispatch_clock_guard BEFORE UPDATE OF dispatch_started_db_at ON executions
WHEN NEW.dispatch_started_db_at IS NOT OLD.dispatch_started_db_at
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is append-only')
  WHERE OLD.dispatch_started_db_at IS NOT NULL;
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is written by the database when the dispatch starts')
  WHERE OLD.state IS 'DISPATCH_STARTED' OR NEW.state IS NOT 'DISPATCH_STARTED'
     OR NEW.dispatch_started_db_at IS NOT CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER);
END;

CREATE TRIGGER executions_dispatch_clock_required BEFORE UPDATE OF state ON executions
WHEN NEW.state = 'DISPATCH_STARTED' AND NEW.dispatch_started_db_at IS NULL
  AND EXISTS (SELECT 1 FROM execution_transitions WHERE from_state = OLD.state AND to_state = 'DISPATCH_STARTED')
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is written by the database when the dispatch starts');
END;

-- (a first state other than CREATED is left to the insert guard, which names that instead)
CREATE TRIGGER executions_history_inserted BEFORE INSERT ON executions
WHEN NEW.state IS 'CREATED'
  AND NEW.history IS NOT json_array(json_array(NEW.state, NEW.updated_at, NEW.completed_at))
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: history must record the execution''s current snapshot');
END;
