-- ZeoCore connections store, SQLite dialect, version 3 (issue 20): fewer index pages written per effect.
--
-- executions_by_state (state, updated_at) held every execution, so each effect moved its entry four times in the
-- claim transaction (CREATED, AUTHORIZATION_VERIFIED, PREPARED, DISPATCH_STARTED sit in different parts of the index)
-- and twice in the outcome transaction: up to six index pages in the WAL per effect. Recovery only ever looks for
-- DISPATCH_STARTED (by age) and AMBIGUOUS executions, so two partial indexes that hold only those serve it, stay
-- small, and are touched once per commit. Counting executions by state (metrics, the actuator endpoint) now scans
-- the table; it is not on the effect path.
DROP INDEX executions_by_state;

CREATE INDEX executions_dispatch_started ON executions (updated_at) WHERE state = 'DISPATCH_STARTED';

CREATE INDEX executions_ambiguous ON executions (updated_at) WHERE state = 'AMBIGUOUS';
