-- ZeoCore store, PostgreSQL dialect, version 8 (issue 20): the claim writes the execution once.
--
-- Until this version zeocore_claim inserted the execution at CREATED and moved it by one compare-and-set update per
-- later snapshot (AUTHORIZATION_VERIFIED, PREPARED, DISPATCH_STARTED): three more tuple versions, each with its index
-- entries, its history and guard triggers, in every claim. It now inserts the execution once, at the chain's last
-- snapshot, with the whole chain as its history; the schema checks the chain here with the rules an update is
-- checked by:
--
--   a JSON array of [state, updated_at, completed_at] (a state's name, epoch microseconds, and epoch microseconds or
--   null); the first snapshot CREATED and not before created_at, the last exactly the row's; every step an edge of
--   execution_transitions; updated_at never decreasing; only the last snapshot completed; DISPATCH_STARTED only as
--   the last snapshot, so an insert never reaches an outcome (SUCCEEDED, AMBIGUOUS): an outcome is always a
--   compare-and-set from a dispatch that was committed first. The dispatch clock of an insert at DISPATCH_STARTED is
--   written by the version-4 trigger, as for an update.
--
-- An insert that sets no history is the one-snapshot chain of its row, as before; updates are unchanged (the trigger
-- appends the new snapshot to the history the row had, whatever the statement set). executions_history runs before
-- executions_insert_guard (PostgreSQL fires the triggers of one event in name order), so the insert guard judges the
-- first state by the history's first snapshot.

CREATE OR REPLACE FUNCTION executions_history() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  snapshot JSONB;
  previous JSONB;
  step BIGINT;
  last_step INTEGER;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW.history := OLD.history || jsonb_build_array(jsonb_build_array(NEW.state, NEW.updated_at, NEW.completed_at));
    RETURN NEW;
  END IF;
  IF NEW.history IS NULL THEN
    NEW.history := jsonb_build_array(jsonb_build_array(NEW.state, NEW.updated_at, NEW.completed_at));
    RETURN NEW;
  END IF;
  IF jsonb_typeof(NEW.history) IS DISTINCT FROM 'array' OR jsonb_array_length(NEW.history) = 0 THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('history must record the execution''s current snapshot');
  END IF;
  last_step := jsonb_array_length(NEW.history) - 1;
  FOR snapshot, step IN
      SELECT value, ordinality - 1 FROM jsonb_array_elements(NEW.history) WITH ORDINALITY ORDER BY ordinality LOOP
    IF jsonb_typeof(snapshot) IS DISTINCT FROM 'array' THEN
      PERFORM ${flyway:defaultSchema}.zeocore_rule('history must record the execution''s current snapshot');
    END IF;
    IF jsonb_array_length(snapshot) <> 3 OR jsonb_typeof(snapshot -> 0) <> 'string'
       OR jsonb_typeof(snapshot -> 1) <> 'number' OR (snapshot ->> 1) !~ '^-?[0-9]{1,18}$'
       OR jsonb_typeof(snapshot -> 2) NOT IN ('null', 'number')
       OR (jsonb_typeof(snapshot -> 2) = 'number' AND ((snapshot ->> 2) !~ '^-?[0-9]{1,18}$' OR step < last_step)) THEN
      PERFORM ${flyway:defaultSchema}.zeocore_rule('history must record the execution''s current snapshot');
    END IF;
    IF step = 0 THEN
      IF snapshot ->> 0 IS DISTINCT FROM 'CREATED' THEN
        PERFORM ${flyway:defaultSchema}.zeocore_rule('first persisted state must be CREATED');
      END IF;
      IF (snapshot ->> 1)::BIGINT < NEW.created_at THEN
        PERFORM ${flyway:defaultSchema}.zeocore_rule('history must record the execution''s current snapshot');
      END IF;
    ELSE
      IF previous ->> 0 = 'DISPATCH_STARTED' THEN
        PERFORM ${flyway:defaultSchema}.zeocore_rule('an execution is inserted at most up to DISPATCH_STARTED');
      END IF;
      IF NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.execution_transitions
                     WHERE from_state = previous ->> 0 AND to_state = snapshot ->> 0) THEN
        PERFORM ${flyway:defaultSchema}.zeocore_rule('transition is not allowed');
      END IF;
      IF (snapshot ->> 1)::BIGINT < (previous ->> 1)::BIGINT THEN
        PERFORM ${flyway:defaultSchema}.zeocore_rule('updated_at must be monotonic');
      END IF;
    END IF;
    previous := snapshot;
  END LOOP;
  IF previous IS DISTINCT FROM jsonb_build_array(NEW.state, NEW.updated_at, NEW.completed_at) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('history must record the execution''s current snapshot');
  END IF;
  RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION executions_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.history -> 0 ->> 0 IS DISTINCT FROM 'CREATED' THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('first persisted state must be CREATED');
  END IF;
  RETURN NEW;
END;
$$;

-- The claim. p_states, p_updated_ats and p_completed_ats hold the snapshot chain (the first is CREATED); the
-- execution is inserted at its last snapshot with the chain as its history.
CREATE OR REPLACE FUNCTION zeocore_claim(
    p_organization_id TEXT, p_nonce TEXT, p_nonce_recorded_at BIGINT,
    p_execution_id TEXT, p_connection_id TEXT, p_connector_revision TEXT, p_operation_id TEXT,
    p_authorization_id TEXT, p_idempotency_key TEXT, p_authorization_digest TEXT, p_request_digest TEXT,
    p_created_at BIGINT, p_states TEXT[], p_updated_ats BIGINT[], p_completed_ats BIGINT[])
  RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  last_snapshot INTEGER := array_length(p_states, 1);
BEGIN
  PERFORM ${flyway:defaultSchema}.zeocore_require_read_committed();
  INSERT INTO ${flyway:defaultSchema}.authorization_nonces (organization_id, nonce, recorded_at)
  VALUES (p_organization_id, p_nonce, p_nonce_recorded_at);
  INSERT INTO ${flyway:defaultSchema}.executions (organization_id, execution_id, connection_id, connector_revision,
      operation_id, authorization_id, idempotency_key, authorization_digest, request_digest, holds_identity, state,
      created_at, updated_at, completed_at, history)
  VALUES (p_organization_id, p_execution_id, p_connection_id, p_connector_revision, p_operation_id,
      p_authorization_id, p_idempotency_key, p_authorization_digest, p_request_digest, 1, p_states[last_snapshot],
      p_created_at, p_updated_ats[last_snapshot], p_completed_ats[last_snapshot],
      (SELECT jsonb_agg(jsonb_build_array(s, u, c) ORDER BY i)
       FROM unnest(p_states, p_updated_ats, p_completed_ats) WITH ORDINALITY AS chain(s, u, c, i)));
  RETURN 1;
END;
$$;
