-- ZeoCore store, PostgreSQL dialect, version 6 (issue 20): the execution history in the execution row.
--
-- Until this version every snapshot an execution had was a row of execution_history, inserted by an AFTER trigger on
-- executions: per effect five more tuples, each with its primary key, its unique (execution, state) entry, its foreign
-- key check and its guard trigger's lookup, about a quarter of the server's WAL per effect. States never repeat within
-- an execution, so its history is short (eight snapshots at the most) and now lives in the execution's own row, which
-- every state change writes anyway:
--
--   executions.history  a JSON array of the execution's snapshots in the order they were taken, each
--                       [state, updated_at, completed_at] (epoch microseconds; completed_at null until terminal).
--
-- The schema writes it itself: a BEFORE trigger sets it on insert to the first snapshot and on every update to the
-- history the row had plus the new snapshot, whatever the statement set, so it can only ever grow by the snapshot the
-- row now holds. The store's statements and the effect functions do not change.
--
-- The histories written before this version are copied into the column, in their order, with the update guard
-- switched off for that one statement (it refuses any update that is not a state transition), and the table dropped.

ALTER TABLE executions ADD COLUMN history JSONB;

DROP TRIGGER executions_history_on_insert ON executions;
DROP TRIGGER executions_history_on_update ON executions;
DROP FUNCTION executions_record_history();

ALTER TABLE executions DISABLE TRIGGER executions_update_guard;
UPDATE executions e
SET history = coalesce(
  (SELECT jsonb_agg(jsonb_build_array(h.state, h.recorded_at, h.completed_at) ORDER BY h.sequence)
   FROM execution_history h
   WHERE h.organization_id = e.organization_id AND h.execution_id = e.execution_id),
  jsonb_build_array(jsonb_build_array(e.state, e.updated_at, e.completed_at)));
ALTER TABLE executions ENABLE TRIGGER executions_update_guard;

DROP TABLE execution_history;
DROP FUNCTION execution_history_insert_guard();

ALTER TABLE executions ALTER COLUMN history SET NOT NULL;

CREATE FUNCTION executions_history() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.history := jsonb_build_array(jsonb_build_array(NEW.state, NEW.updated_at, NEW.completed_at));
  ELSE
    NEW.history := OLD.history || jsonb_build_array(jsonb_build_array(NEW.state, NEW.updated_at, NEW.completed_at));
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER executions_history BEFORE INSERT OR UPDATE ON executions
  FOR EACH ROW EXECUTE FUNCTION executions_history();
