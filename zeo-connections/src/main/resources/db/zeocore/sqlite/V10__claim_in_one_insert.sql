-- ZeoCore store, SQLite dialect, version 10 (issue 40): the claim writes the execution once.
--
-- Until this version the claim inserted the execution at CREATED and moved it by one compare-and-set update per
-- later snapshot (AUTHORIZATION_VERIFIED, PREPARED, DISPATCH_STARTED): three more statements in the single writer's
-- transaction, each running the update guard and rewriting the row with its history appended. The claim now inserts
-- the execution once, at DISPATCH_STARTED, with the claim's whole chain as its history, as PostgreSQL does since its
-- version 8. An insert is accepted in exactly two forms:
--
--   at CREATED, its history exactly that one snapshot (as before: how a refusal starts);
--   at DISPATCH_STARTED, its history exactly the claim's chain [CREATED, AUTHORIZATION_VERIFIED, PREPARED,
--   DISPATCH_STARTED] (each step an edge of the frozen execution_transitions), each snapshot [state, updated_at,
--   null] with integer instants never decreasing from created_at, the last the row's own; and the dispatch clock set
--   by this very statement to its clock, as the update into DISPATCH_STARTED sets it.
--
-- Every other state is still reached only by a compare-and-set update, checked as before; in particular no insert
-- reaches an outcome (SUCCEEDED, AMBIGUOUS). The chain is compared as a whole rather than walked step by step
-- (json_each), which costs about as much as the three updates it replaces.
--
-- The three insert triggers of versions 1, 6 and 7 (the insert guard, no dispatch clock on insert, the history of an
-- inserted execution) become this one, its checks in the order they ran: a first state other than CREATED, the
-- history, the dispatch clock, then a taken id or identity. Updates are unchanged. No row changes.

DROP TRIGGER executions_insert_guard;
DROP TRIGGER executions_history_inserted;
DROP TRIGGER executions_dispatch_clock_not_inserted;

CREATE TRIGGER executions_insert_guard BEFORE INSERT ON executions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: first persisted state must be CREATED')
  WHERE NEW.state NOT IN ('CREATED', 'DISPATCH_STARTED');
  SELECT RAISE(ABORT, 'zeocore-rule: history must record the execution''s current snapshot')
  WHERE NEW.history IS NULL OR NOT json_valid(NEW.history);
  SELECT RAISE(ABORT, 'zeocore-rule: history must record the execution''s current snapshot')
  WHERE NEW.history IS NOT (CASE NEW.state
          WHEN 'CREATED' THEN json_array(json_array('CREATED', NEW.updated_at, NEW.completed_at))
          ELSE json_array(json_array('CREATED', json_extract(NEW.history, '$[0][1]'), NULL),
                          json_array('AUTHORIZATION_VERIFIED', json_extract(NEW.history, '$[1][1]'), NULL),
                          json_array('PREPARED', json_extract(NEW.history, '$[2][1]'), NULL),
                          json_array('DISPATCH_STARTED', NEW.updated_at, NEW.completed_at)) END)
     OR (NEW.state = 'DISPATCH_STARTED'
         AND NOT (json_type(NEW.history, '$[0][1]') = 'integer' AND json_type(NEW.history, '$[1][1]') = 'integer'
                  AND json_type(NEW.history, '$[2][1]') = 'integer'
                  AND NEW.created_at <= json_extract(NEW.history, '$[0][1]')
                  AND json_extract(NEW.history, '$[0][1]') <= json_extract(NEW.history, '$[1][1]')
                  AND json_extract(NEW.history, '$[1][1]') <= json_extract(NEW.history, '$[2][1]')
                  AND json_extract(NEW.history, '$[2][1]') <= NEW.updated_at));
  SELECT RAISE(ABORT, 'zeocore-rule: the dispatch clock is written by the database when the dispatch starts')
  WHERE NEW.dispatch_started_db_at IS NOT (CASE WHEN NEW.state IS 'DISPATCH_STARTED'
                                                THEN CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER)
                                           END);
  SELECT RAISE(ABORT, 'zeocore-conflict: execution id or idempotency identity already exists')
  WHERE EXISTS (SELECT 1 FROM executions
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id)
     OR (NEW.holds_identity = 1
         AND EXISTS (SELECT 1 FROM executions
                     WHERE organization_id = NEW.organization_id AND connection_id = NEW.connection_id
                       AND connector_revision = NEW.connector_revision AND operation_id = NEW.operation_id
                       AND idempotency_key = NEW.idempotency_key AND holds_identity = 1));
END;
