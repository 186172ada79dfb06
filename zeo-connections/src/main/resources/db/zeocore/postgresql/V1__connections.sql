-- ZeoCore connections store, PostgreSQL dialect, version 1: connections, connector revisions, effect executions.
--
-- Same tables, keys and guarantees as the SQLite dialect (db/zeocore/sqlite/V1__connections.sql). Instants are BIGINT
-- epoch microseconds (UTC). Flyway runs this script with ${flyway:defaultSchema} as the search path, so the DDL below
-- creates its objects there; the trigger functions name every table with that schema explicitly, so they behave the
-- same whatever search_path the connection that fires them has.
--
-- Who decides what, across processes (READ COMMITTED):
-- * Uniqueness (nonce, execution id, idempotency identity, one outcome receipt, one ambiguity receipt, receipt
--   timestamp, evidence reference, history state) is decided by unique constraints and indexes only. A concurrent
--   insert of the same key waits for the first transaction and then fails with SQLSTATE 23505; the store maps the
--   constraint names below to its messages. Guard triggers therefore never look for duplicates themselves: under
--   READ COMMITTED they could not see a concurrent, uncommitted row.
-- * Rules (first state, transition edges, identity immutability, receipt/evidence provenance) are checked by guard
--   triggers that raise 'zeocore-rule: <what>' with SQLSTATE 23514 (check_violation). The receipt guard reads the
--   execution's state FOR SHARE, so that state cannot change between the check and the commit.
-- * Append-only tables refuse UPDATE, DELETE and TRUNCATE by trigger. INSERT ... ON CONFLICT DO UPDATE runs the BEFORE
--   UPDATE trigger of the conflicting row, so it is refused too; ON CONFLICT DO NOTHING changes nothing. (Only a
--   superuser or the tables' owner can get around triggers: session_replication_role = replica, or ALTER TABLE ...
--   DISABLE TRIGGER. Give application roles neither.)

-- A broken invariant. Raised by every guard trigger; never carries a value.
CREATE FUNCTION zeocore_rule(what TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'zeocore-rule: %', what USING ERRCODE = 'check_violation';
END;
$$;

-- Refuses the statement that fired it (UPDATE, DELETE or TRUNCATE on an append-only table). TG_ARGV[0] says why.
CREATE FUNCTION zeocore_refuse() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ${flyway:defaultSchema}.zeocore_rule(TG_ARGV[0]);
  RETURN NULL;
END;
$$;

CREATE TABLE connections (
  organization_id TEXT NOT NULL,
  connection_id   TEXT NOT NULL,
  document        TEXT NOT NULL,
  CONSTRAINT connections_pkey PRIMARY KEY (organization_id, connection_id)
);

CREATE TABLE connector_revisions (
  organization_id TEXT NOT NULL,
  revision_id     TEXT NOT NULL,
  document        TEXT NOT NULL,
  CONSTRAINT connector_revisions_pkey PRIMARY KEY (organization_id, revision_id)
);

CREATE TRIGGER connector_revisions_no_update BEFORE UPDATE ON connector_revisions
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('connector revision is immutable');
CREATE TRIGGER connector_revisions_no_delete BEFORE DELETE ON connector_revisions
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('connector revision is immutable');
CREATE TRIGGER connector_revisions_no_truncate BEFORE TRUNCATE ON connector_revisions
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('connector revision is immutable');

-- The only edges of the execution state machine. Frozen by the triggers below.
CREATE TABLE execution_transitions (
  from_state TEXT NOT NULL,
  to_state   TEXT NOT NULL,
  CONSTRAINT execution_transitions_pkey PRIMARY KEY (from_state, to_state)
);

INSERT INTO execution_transitions (from_state, to_state) VALUES
  ('CREATED', 'AUTHORIZATION_VERIFIED'),
  ('CREATED', 'FAILED_SAFE'),
  ('CREATED', 'REFUSED'),
  ('AUTHORIZATION_VERIFIED', 'PREPARED'),
  ('AUTHORIZATION_VERIFIED', 'FAILED_SAFE'),
  ('AUTHORIZATION_VERIFIED', 'REFUSED'),
  ('PREPARED', 'DISPATCH_STARTED'),
  ('PREPARED', 'FAILED_SAFE'),
  ('PREPARED', 'REFUSED'),
  ('DISPATCH_STARTED', 'SUCCEEDED'),
  ('DISPATCH_STARTED', 'FAILED_SAFE'),
  ('DISPATCH_STARTED', 'AMBIGUOUS'),
  ('AMBIGUOUS', 'SUCCEEDED'),
  ('AMBIGUOUS', 'FAILED_SAFE');

CREATE TRIGGER execution_transitions_frozen_insert BEFORE INSERT ON execution_transitions
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('the transition table is fixed');
CREATE TRIGGER execution_transitions_frozen_update BEFORE UPDATE ON execution_transitions
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('the transition table is fixed');
CREATE TRIGGER execution_transitions_frozen_delete BEFORE DELETE ON execution_transitions
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('the transition table is fixed');
CREATE TRIGGER execution_transitions_frozen_truncate BEFORE TRUNCATE ON execution_transitions
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('the transition table is fixed');

-- holds_identity = 1 for claimed executions; 0 for persisted refusals, which do not occupy the idempotency identity.
CREATE TABLE executions (
  organization_id      TEXT     NOT NULL,
  execution_id         TEXT     NOT NULL,
  connection_id        TEXT     NOT NULL,
  connector_revision   TEXT     NOT NULL,
  operation_id         TEXT     NOT NULL,
  authorization_id     TEXT     NOT NULL,
  idempotency_key      TEXT     NOT NULL,
  authorization_digest TEXT     NOT NULL,
  request_digest       TEXT     NOT NULL,
  holds_identity       SMALLINT NOT NULL CHECK (holds_identity IN (0, 1)),
  state                TEXT     NOT NULL CHECK (state IN ('CREATED', 'AUTHORIZATION_VERIFIED', 'PREPARED',
                         'DISPATCH_STARTED', 'SUCCEEDED', 'FAILED_SAFE', 'REFUSED', 'AMBIGUOUS')),
  created_at           BIGINT   NOT NULL,
  updated_at           BIGINT   NOT NULL,
  completed_at         BIGINT,
  CONSTRAINT executions_pkey PRIMARY KEY (organization_id, execution_id),
  CHECK (updated_at >= created_at),
  CHECK ((completed_at IS NOT NULL) = (state IN ('SUCCEEDED', 'FAILED_SAFE', 'REFUSED')))
);

-- The idempotency identity is unique among claimed executions; refusals (holds_identity = 0) never occupy it.
CREATE UNIQUE INDEX executions_idempotency_identity
  ON executions (organization_id, connection_id, connector_revision, operation_id, idempotency_key)
  WHERE holds_identity = 1;

CREATE INDEX executions_by_state ON executions (state, updated_at);

-- Every snapshot an execution ever had, written only by the triggers on executions. States never repeat within an
-- execution (the transition graph has no cycles), so (organization, execution, state) is unique.
CREATE TABLE execution_history (
  sequence        BIGINT GENERATED ALWAYS AS IDENTITY,
  organization_id TEXT   NOT NULL,
  execution_id    TEXT   NOT NULL,
  state           TEXT   NOT NULL,
  recorded_at     BIGINT NOT NULL,
  completed_at    BIGINT,
  CONSTRAINT execution_history_pkey PRIMARY KEY (sequence),
  CONSTRAINT execution_history_state_once UNIQUE (organization_id, execution_id, state),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
);

CREATE FUNCTION execution_history_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.executions
                 WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                   AND state = NEW.state AND updated_at = NEW.recorded_at
                   AND completed_at IS NOT DISTINCT FROM NEW.completed_at) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('history must record the execution''s current snapshot');
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER execution_history_insert_guard BEFORE INSERT ON execution_history
  FOR EACH ROW EXECUTE FUNCTION execution_history_insert_guard();
CREATE TRIGGER execution_history_no_update BEFORE UPDATE ON execution_history
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('history is append-only');
CREATE TRIGGER execution_history_no_delete BEFORE DELETE ON execution_history
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('history is append-only');
CREATE TRIGGER execution_history_no_truncate BEFORE TRUNCATE ON execution_history
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('history is append-only');

CREATE FUNCTION executions_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state IS DISTINCT FROM 'CREATED' THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('first persisted state must be CREATED');
  END IF;
  RETURN NEW;
END;
$$;

CREATE FUNCTION executions_update_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.organization_id IS DISTINCT FROM OLD.organization_id
     OR NEW.execution_id IS DISTINCT FROM OLD.execution_id
     OR NEW.connection_id IS DISTINCT FROM OLD.connection_id
     OR NEW.connector_revision IS DISTINCT FROM OLD.connector_revision
     OR NEW.operation_id IS DISTINCT FROM OLD.operation_id
     OR NEW.authorization_id IS DISTINCT FROM OLD.authorization_id
     OR NEW.idempotency_key IS DISTINCT FROM OLD.idempotency_key
     OR NEW.authorization_digest IS DISTINCT FROM OLD.authorization_digest
     OR NEW.request_digest IS DISTINCT FROM OLD.request_digest
     OR NEW.holds_identity IS DISTINCT FROM OLD.holds_identity
     OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('execution identity is immutable');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.execution_transitions
                 WHERE from_state = OLD.state AND to_state = NEW.state) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('transition is not allowed');
  END IF;
  IF NEW.updated_at < OLD.updated_at THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('updated_at must be monotonic');
  END IF;
  RETURN NEW;
END;
$$;

-- Appends the row's new snapshot to the history (after insert and after every state change).
CREATE FUNCTION executions_record_history() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${flyway:defaultSchema}.execution_history
    (organization_id, execution_id, state, recorded_at, completed_at)
  VALUES (NEW.organization_id, NEW.execution_id, NEW.state, NEW.updated_at, NEW.completed_at);
  RETURN NULL;
END;
$$;

CREATE TRIGGER executions_insert_guard BEFORE INSERT ON executions
  FOR EACH ROW EXECUTE FUNCTION executions_insert_guard();
CREATE TRIGGER executions_update_guard BEFORE UPDATE ON executions
  FOR EACH ROW EXECUTE FUNCTION executions_update_guard();
CREATE TRIGGER executions_no_delete BEFORE DELETE ON executions
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('executions are never deleted');
CREATE TRIGGER executions_no_truncate BEFORE TRUNCATE ON executions
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('executions are never deleted');
CREATE TRIGGER executions_history_on_insert AFTER INSERT ON executions
  FOR EACH ROW EXECUTE FUNCTION executions_record_history();
CREATE TRIGGER executions_history_on_update AFTER UPDATE ON executions
  FOR EACH ROW EXECUTE FUNCTION executions_record_history();

-- (organization, nonce) is one-use; nonces are shared by effects and observations.
CREATE TABLE authorization_nonces (
  organization_id TEXT   NOT NULL,
  nonce           TEXT   NOT NULL,
  recorded_at     BIGINT NOT NULL,
  CONSTRAINT authorization_nonces_pkey PRIMARY KEY (organization_id, nonce)
);

CREATE TRIGGER authorization_nonces_no_update BEFORE UPDATE ON authorization_nonces
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('authorization nonces are append-only');
CREATE TRIGGER authorization_nonces_no_delete BEFORE DELETE ON authorization_nonces
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('authorization nonces are append-only');
CREATE TRIGGER authorization_nonces_no_truncate BEFORE TRUNCATE ON authorization_nonces
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('authorization nonces are append-only');

CREATE TABLE evidence_references (
  sequence        BIGINT GENERATED ALWAYS AS IDENTITY,
  organization_id TEXT   NOT NULL,
  execution_id    TEXT   NOT NULL,
  evidence_ref    TEXT   NOT NULL,
  CONSTRAINT evidence_references_pkey PRIMARY KEY (sequence),
  CONSTRAINT evidence_references_ref_once UNIQUE (organization_id, evidence_ref),
  CONSTRAINT evidence_references_execution_ref UNIQUE (organization_id, execution_id, evidence_ref),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
);

CREATE FUNCTION evidence_references_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  -- executions are never deleted, so existence needs no lock (a FOR SHARE here would deadlock two outcome commits
  -- that each insert evidence before their compare-and-set update of the same execution)
  IF NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.executions
                 WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('execution does not exist in organization');
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER evidence_references_insert_guard BEFORE INSERT ON evidence_references
  FOR EACH ROW EXECUTE FUNCTION evidence_references_insert_guard();
CREATE TRIGGER evidence_references_no_update BEFORE UPDATE ON evidence_references
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('evidence is append-only');
CREATE TRIGGER evidence_references_no_delete BEFORE DELETE ON evidence_references
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('evidence is append-only');
CREATE TRIGGER evidence_references_no_truncate BEFORE TRUNCATE ON evidence_references
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('evidence is append-only');

-- Only the digest of what the provider returned is stored, never provider bytes.
CREATE TABLE confirmation_evidence (
  organization_id     TEXT   NOT NULL,
  execution_id        TEXT   NOT NULL,
  evidence_ref        TEXT   NOT NULL,
  observed_at         BIGINT NOT NULL,
  confirmation_digest TEXT   NOT NULL CHECK (confirmation_digest ~ '^[0-9a-f]{64}$'),
  CONSTRAINT confirmation_evidence_pkey PRIMARY KEY (organization_id, evidence_ref),
  FOREIGN KEY (organization_id, execution_id, evidence_ref)
    REFERENCES evidence_references (organization_id, execution_id, evidence_ref)
);

CREATE FUNCTION confirmation_evidence_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.evidence_references
                 WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                   AND evidence_ref = NEW.evidence_ref) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('confirmation evidence lacks its evidence reference');
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER confirmation_evidence_insert_guard BEFORE INSERT ON confirmation_evidence
  FOR EACH ROW EXECUTE FUNCTION confirmation_evidence_insert_guard();
CREATE TRIGGER confirmation_evidence_no_update BEFORE UPDATE ON confirmation_evidence
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('evidence is append-only');
CREATE TRIGGER confirmation_evidence_no_delete BEFORE DELETE ON confirmation_evidence
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('evidence is append-only');
CREATE TRIGGER confirmation_evidence_no_truncate BEFORE TRUNCATE ON confirmation_evidence
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('evidence is append-only');

-- Append-only outcome records. At most one terminal receipt and one AMBIGUOUS transition receipt per execution;
-- any number of AMBIGUOUS attempt receipts (those with reconciliation_attempt_evidence). provider_detail is never
-- persisted, so it has no column.
CREATE TABLE receipts (
  sequence                        BIGINT GENERATED ALWAYS AS IDENTITY,
  organization_id                 TEXT   NOT NULL,
  execution_id                    TEXT   NOT NULL,
  connection_id                   TEXT   NOT NULL,
  final_state                     TEXT   NOT NULL
    CHECK (final_state IN ('SUCCEEDED', 'FAILED_SAFE', 'REFUSED', 'AMBIGUOUS')),
  error_code                      TEXT,
  error_message                   TEXT,
  recorded_at                     BIGINT NOT NULL,
  dispatch_started_at             BIGINT,
  resolved_at                     BIGINT,
  confirmation_evidence_ref       TEXT,
  reconciliation_evidence         TEXT,
  resolves_ambiguous_recorded_at  BIGINT,
  reconciliation_attempt_evidence TEXT,
  CONSTRAINT receipts_pkey PRIMARY KEY (sequence),
  CHECK ((error_code IS NULL) = (error_message IS NULL)),
  CONSTRAINT receipts_recorded_at_once UNIQUE (organization_id, execution_id, recorded_at),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id),
  FOREIGN KEY (organization_id, execution_id, confirmation_evidence_ref)
    REFERENCES evidence_references (organization_id, execution_id, evidence_ref)
);

CREATE UNIQUE INDEX receipts_one_outcome ON receipts (organization_id, execution_id)
  WHERE final_state <> 'AMBIGUOUS';

CREATE UNIQUE INDEX receipts_one_ambiguity ON receipts (organization_id, execution_id)
  WHERE final_state = 'AMBIGUOUS' AND reconciliation_attempt_evidence IS NULL;

CREATE FUNCTION receipts_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  execution_connection TEXT;
  execution_state TEXT;
BEGIN
  -- FOR SHARE: the execution's state cannot change between this check and the commit
  SELECT connection_id, state INTO execution_connection, execution_state
    FROM ${flyway:defaultSchema}.executions
    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id FOR SHARE;
  IF NOT FOUND THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('receipt execution does not exist');
  END IF;
  IF execution_connection IS DISTINCT FROM NEW.connection_id THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('receipt connection mismatch');
  END IF;
  IF execution_state IS DISTINCT FROM NEW.final_state THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('receipt state does not match execution');
  END IF;
  IF NEW.confirmation_evidence_ref IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.evidence_references
                     WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                       AND evidence_ref = NEW.confirmation_evidence_ref) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('receipt evidence reference lacks provenance');
  END IF;
  IF NEW.resolves_ambiguous_recorded_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.receipts
                     WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                       AND final_state = 'AMBIGUOUS' AND reconciliation_attempt_evidence IS NULL
                       AND recorded_at = NEW.resolves_ambiguous_recorded_at) THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('resolving receipt does not reference persisted ambiguity');
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER receipts_insert_guard BEFORE INSERT ON receipts
  FOR EACH ROW EXECUTE FUNCTION receipts_insert_guard();
CREATE TRIGGER receipts_no_update BEFORE UPDATE ON receipts
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('receipts are append-only');
CREATE TRIGGER receipts_no_delete BEFORE DELETE ON receipts
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('receipts are append-only');
CREATE TRIGGER receipts_no_truncate BEFORE TRUNCATE ON receipts
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('receipts are append-only');
