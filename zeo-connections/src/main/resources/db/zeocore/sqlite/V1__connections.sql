-- ZeoCore connections store, SQLite dialect, version 1: connections, connector revisions, effect executions.
--
-- Instants are INTEGER epoch microseconds (UTC). Guard triggers raise ABORT with a message of the form
-- 'zeocore-conflict: <what>' (a uniqueness conflict) or 'zeocore-rule: <what>' (a broken invariant); the store maps
-- them to ConnectionStoreException messages. The guards do not depend on connection settings: a BEFORE INSERT guard
-- refuses a row whose key already exists, so INSERT OR REPLACE / OR IGNORE cannot overwrite history even on a
-- connection without recursive_triggers.

CREATE TABLE connections (
  organization_id TEXT NOT NULL,
  connection_id   TEXT NOT NULL,
  document        TEXT NOT NULL,
  PRIMARY KEY (organization_id, connection_id)
) WITHOUT ROWID;

CREATE TABLE connector_revisions (
  organization_id TEXT NOT NULL,
  revision_id     TEXT NOT NULL,
  document        TEXT NOT NULL,
  PRIMARY KEY (organization_id, revision_id)
) WITHOUT ROWID;

CREATE TRIGGER connector_revisions_no_overwrite BEFORE INSERT ON connector_revisions
WHEN EXISTS (SELECT 1 FROM connector_revisions
             WHERE organization_id = NEW.organization_id AND revision_id = NEW.revision_id)
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: connector revision is immutable');
END;

CREATE TRIGGER connector_revisions_no_update BEFORE UPDATE ON connector_revisions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: connector revision is immutable');
END;

CREATE TRIGGER connector_revisions_no_delete BEFORE DELETE ON connector_revisions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: connector revision is immutable');
END;

-- The only edges of the execution state machine. Frozen by the triggers below.
CREATE TABLE execution_transitions (
  from_state TEXT NOT NULL,
  to_state   TEXT NOT NULL,
  PRIMARY KEY (from_state, to_state)
) WITHOUT ROWID;

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
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the transition table is fixed');
END;

CREATE TRIGGER execution_transitions_frozen_update BEFORE UPDATE ON execution_transitions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the transition table is fixed');
END;

CREATE TRIGGER execution_transitions_frozen_delete BEFORE DELETE ON execution_transitions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: the transition table is fixed');
END;

-- holds_identity = 1 for claimed executions; 0 for persisted refusals, which do not occupy the idempotency identity.
CREATE TABLE executions (
  organization_id      TEXT    NOT NULL,
  execution_id         TEXT    NOT NULL,
  connection_id        TEXT    NOT NULL,
  connector_revision   TEXT    NOT NULL,
  operation_id         TEXT    NOT NULL,
  authorization_id     TEXT    NOT NULL,
  idempotency_key      TEXT    NOT NULL,
  authorization_digest TEXT    NOT NULL,
  request_digest       TEXT    NOT NULL,
  holds_identity       INTEGER NOT NULL CHECK (holds_identity IN (0, 1)),
  state                TEXT    NOT NULL CHECK (state IN ('CREATED', 'AUTHORIZATION_VERIFIED', 'PREPARED',
                         'DISPATCH_STARTED', 'SUCCEEDED', 'FAILED_SAFE', 'REFUSED', 'AMBIGUOUS')),
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  completed_at         INTEGER,
  PRIMARY KEY (organization_id, execution_id),
  CHECK (updated_at >= created_at),
  CHECK ((completed_at IS NOT NULL) = (state IN ('SUCCEEDED', 'FAILED_SAFE', 'REFUSED')))
) WITHOUT ROWID;

CREATE UNIQUE INDEX executions_idempotency_identity
  ON executions (organization_id, connection_id, connector_revision, operation_id, idempotency_key)
  WHERE holds_identity = 1;

CREATE INDEX executions_by_state ON executions (state, updated_at);

-- Every snapshot an execution ever had, written only by the triggers on executions. States never repeat within an
-- execution (the transition graph has no cycles), so (organization, execution, state) is unique.
CREATE TABLE execution_history (
  sequence        INTEGER PRIMARY KEY,
  organization_id TEXT    NOT NULL,
  execution_id    TEXT    NOT NULL,
  state           TEXT    NOT NULL,
  recorded_at     INTEGER NOT NULL,
  completed_at    INTEGER,
  UNIQUE (organization_id, execution_id, state),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
);

CREATE TRIGGER execution_history_insert_guard BEFORE INSERT ON execution_history
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: history is append-only')
  WHERE EXISTS (SELECT 1 FROM execution_history WHERE sequence = NEW.sequence)
     OR EXISTS (SELECT 1 FROM execution_history
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND state = NEW.state);
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

CREATE TRIGGER executions_insert_guard BEFORE INSERT ON executions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: first persisted state must be CREATED')
  WHERE NEW.state IS NOT 'CREATED';
  SELECT RAISE(ABORT, 'zeocore-conflict: execution id or idempotency identity already exists')
  WHERE EXISTS (SELECT 1 FROM executions
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id)
     OR (NEW.holds_identity = 1
         AND EXISTS (SELECT 1 FROM executions
                     WHERE organization_id = NEW.organization_id AND connection_id = NEW.connection_id
                       AND connector_revision = NEW.connector_revision AND operation_id = NEW.operation_id
                       AND idempotency_key = NEW.idempotency_key AND holds_identity = 1));
END;

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
END;

CREATE TRIGGER executions_no_delete BEFORE DELETE ON executions
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: executions are never deleted');
END;

CREATE TRIGGER executions_history_on_insert AFTER INSERT ON executions
BEGIN
  INSERT INTO execution_history (organization_id, execution_id, state, recorded_at, completed_at)
  VALUES (NEW.organization_id, NEW.execution_id, NEW.state, NEW.updated_at, NEW.completed_at);
END;

CREATE TRIGGER executions_history_on_update AFTER UPDATE ON executions
BEGIN
  INSERT INTO execution_history (organization_id, execution_id, state, recorded_at, completed_at)
  VALUES (NEW.organization_id, NEW.execution_id, NEW.state, NEW.updated_at, NEW.completed_at);
END;

-- (organization, nonce) is one-use; nonces are shared by effects and observations.
CREATE TABLE authorization_nonces (
  organization_id TEXT    NOT NULL,
  nonce           TEXT    NOT NULL,
  recorded_at     INTEGER NOT NULL,
  PRIMARY KEY (organization_id, nonce)
) WITHOUT ROWID;

CREATE TRIGGER authorization_nonces_one_use BEFORE INSERT ON authorization_nonces
WHEN EXISTS (SELECT 1 FROM authorization_nonces WHERE organization_id = NEW.organization_id AND nonce = NEW.nonce)
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: authorization nonce was already used');
END;

CREATE TRIGGER authorization_nonces_no_update BEFORE UPDATE ON authorization_nonces
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: authorization nonces are append-only');
END;

CREATE TRIGGER authorization_nonces_no_delete BEFORE DELETE ON authorization_nonces
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: authorization nonces are append-only');
END;

CREATE TABLE evidence_references (
  sequence        INTEGER PRIMARY KEY,
  organization_id TEXT    NOT NULL,
  execution_id    TEXT    NOT NULL,
  evidence_ref    TEXT    NOT NULL,
  UNIQUE (organization_id, evidence_ref),
  UNIQUE (organization_id, execution_id, evidence_ref),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
);

CREATE TRIGGER evidence_references_insert_guard BEFORE INSERT ON evidence_references
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: evidence reference already exists')
  WHERE EXISTS (SELECT 1 FROM evidence_references WHERE sequence = NEW.sequence)
     OR EXISTS (SELECT 1 FROM evidence_references
                WHERE organization_id = NEW.organization_id AND evidence_ref = NEW.evidence_ref);
  SELECT RAISE(ABORT, 'zeocore-rule: execution does not exist in organization')
  WHERE NOT EXISTS (SELECT 1 FROM executions
                    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id);
END;

CREATE TRIGGER evidence_references_no_update BEFORE UPDATE ON evidence_references
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: evidence is append-only');
END;

CREATE TRIGGER evidence_references_no_delete BEFORE DELETE ON evidence_references
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: evidence is append-only');
END;

-- Only the digest of what the provider returned is stored, never provider bytes.
CREATE TABLE confirmation_evidence (
  organization_id     TEXT    NOT NULL,
  execution_id        TEXT    NOT NULL,
  evidence_ref        TEXT    NOT NULL,
  observed_at         INTEGER NOT NULL,
  confirmation_digest TEXT    NOT NULL
    CHECK (length(confirmation_digest) = 64 AND confirmation_digest NOT GLOB '*[^0-9a-f]*'),
  PRIMARY KEY (organization_id, evidence_ref),
  FOREIGN KEY (organization_id, execution_id, evidence_ref)
    REFERENCES evidence_references (organization_id, execution_id, evidence_ref)
) WITHOUT ROWID;

CREATE TRIGGER confirmation_evidence_insert_guard BEFORE INSERT ON confirmation_evidence
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: evidence reference already exists')
  WHERE EXISTS (SELECT 1 FROM confirmation_evidence
                WHERE organization_id = NEW.organization_id AND evidence_ref = NEW.evidence_ref);
  SELECT RAISE(ABORT, 'zeocore-rule: confirmation evidence lacks its evidence reference')
  WHERE NOT EXISTS (SELECT 1 FROM evidence_references
                    WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                      AND evidence_ref = NEW.evidence_ref);
END;

CREATE TRIGGER confirmation_evidence_no_update BEFORE UPDATE ON confirmation_evidence
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: evidence is append-only');
END;

CREATE TRIGGER confirmation_evidence_no_delete BEFORE DELETE ON confirmation_evidence
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: evidence is append-only');
END;

-- Append-only outcome records. At most one terminal receipt and one AMBIGUOUS transition receipt per execution;
-- any number of AMBIGUOUS attempt receipts (those with reconciliation_attempt_evidence). provider_detail is never
-- persisted, so it has no column.
CREATE TABLE receipts (
  sequence                        INTEGER PRIMARY KEY,
  organization_id                 TEXT    NOT NULL,
  execution_id                    TEXT    NOT NULL,
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
  UNIQUE (organization_id, execution_id, recorded_at),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id),
  FOREIGN KEY (organization_id, execution_id, confirmation_evidence_ref)
    REFERENCES evidence_references (organization_id, execution_id, evidence_ref)
);

CREATE UNIQUE INDEX receipts_one_outcome ON receipts (organization_id, execution_id)
  WHERE final_state <> 'AMBIGUOUS';

CREATE UNIQUE INDEX receipts_one_ambiguity ON receipts (organization_id, execution_id)
  WHERE final_state = 'AMBIGUOUS' AND reconciliation_attempt_evidence IS NULL;

CREATE TRIGGER receipts_insert_guard BEFORE INSERT ON receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: receipt timestamp already exists')
  WHERE EXISTS (SELECT 1 FROM receipts WHERE sequence = NEW.sequence)
     OR EXISTS (SELECT 1 FROM receipts
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
