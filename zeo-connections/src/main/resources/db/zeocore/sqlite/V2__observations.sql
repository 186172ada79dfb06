-- ZeoCore connections store, SQLite dialect, version 2: observations (reads) and their one receipt each.
-- Same conventions as V1: instants are INTEGER epoch microseconds; guards raise 'zeocore-conflict: ...' or
-- 'zeocore-rule: ...'.

CREATE TABLE observations (
  organization_id      TEXT    NOT NULL,
  observation_id       TEXT    NOT NULL,
  connection_id        TEXT    NOT NULL,
  connector_revision   TEXT    NOT NULL,
  operation_id         TEXT    NOT NULL,
  authorization_id     TEXT    NOT NULL,
  idempotency_key      TEXT    NOT NULL,
  authorization_digest TEXT    NOT NULL,
  request_digest       TEXT    NOT NULL,
  state                TEXT    NOT NULL CHECK (state IN ('CLAIMED', 'CONFIRMED', 'FAILED_SAFE')),
  created_at           INTEGER NOT NULL,
  completed_at         INTEGER,
  PRIMARY KEY (organization_id, observation_id),
  UNIQUE (organization_id, connection_id, connector_revision, operation_id, idempotency_key),
  CHECK ((state = 'CLAIMED') = (completed_at IS NULL)),
  CHECK (completed_at IS NULL OR completed_at >= created_at)
) WITHOUT ROWID;

CREATE TRIGGER observations_insert_guard BEFORE INSERT ON observations
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: new observation must start CLAIMED')
  WHERE NEW.state IS NOT 'CLAIMED';
  SELECT RAISE(ABORT, 'zeocore-conflict: observation id or idempotency identity already exists')
  WHERE EXISTS (SELECT 1 FROM observations
                WHERE organization_id = NEW.organization_id AND observation_id = NEW.observation_id)
     OR EXISTS (SELECT 1 FROM observations
                WHERE organization_id = NEW.organization_id AND connection_id = NEW.connection_id
                  AND connector_revision = NEW.connector_revision AND operation_id = NEW.operation_id
                  AND idempotency_key = NEW.idempotency_key);
END;

CREATE TRIGGER observations_update_guard BEFORE UPDATE ON observations
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: observation identity is immutable')
  WHERE NEW.organization_id IS NOT OLD.organization_id
     OR NEW.observation_id IS NOT OLD.observation_id
     OR NEW.connection_id IS NOT OLD.connection_id
     OR NEW.connector_revision IS NOT OLD.connector_revision
     OR NEW.operation_id IS NOT OLD.operation_id
     OR NEW.authorization_id IS NOT OLD.authorization_id
     OR NEW.idempotency_key IS NOT OLD.idempotency_key
     OR NEW.authorization_digest IS NOT OLD.authorization_digest
     OR NEW.request_digest IS NOT OLD.request_digest
     OR NEW.created_at IS NOT OLD.created_at;
  SELECT RAISE(ABORT, 'zeocore-rule: observation is already terminal')
  WHERE OLD.state IS NOT 'CLAIMED';
  SELECT RAISE(ABORT, 'zeocore-rule: committed observation must be terminal')
  WHERE NEW.state NOT IN ('CONFIRMED', 'FAILED_SAFE');
END;

CREATE TRIGGER observations_no_delete BEFORE DELETE ON observations
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: observations are never deleted');
END;

-- The inline result is canonical JSON text; artifacts are stored as metadata only.
CREATE TABLE observation_receipts (
  organization_id         TEXT    NOT NULL,
  observation_id          TEXT    NOT NULL,
  connection_id           TEXT    NOT NULL,
  final_state             TEXT    NOT NULL CHECK (final_state IN ('CONFIRMED', 'FAILED_SAFE')),
  request_digest          TEXT    NOT NULL,
  result_digest           TEXT,
  inline_result           TEXT,
  artifact_ref            TEXT,
  artifact_content_sha256 TEXT,
  artifact_size_bytes     INTEGER,
  artifact_media_type     TEXT,
  error_code              TEXT,
  error_message           TEXT,
  recorded_at             INTEGER NOT NULL,
  PRIMARY KEY (organization_id, observation_id),
  CHECK ((error_code IS NULL) = (error_message IS NULL)),
  FOREIGN KEY (organization_id, observation_id) REFERENCES observations (organization_id, observation_id)
) WITHOUT ROWID;

CREATE TRIGGER observation_receipts_insert_guard BEFORE INSERT ON observation_receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: observation outcome already exists')
  WHERE EXISTS (SELECT 1 FROM observation_receipts
                WHERE organization_id = NEW.organization_id AND observation_id = NEW.observation_id);
  SELECT RAISE(ABORT, 'zeocore-rule: observation claim does not exist')
  WHERE NOT EXISTS (SELECT 1 FROM observations
                    WHERE organization_id = NEW.organization_id AND observation_id = NEW.observation_id);
  SELECT RAISE(ABORT, 'zeocore-rule: observation receipt does not match its record')
  WHERE NOT EXISTS (SELECT 1 FROM observations
                    WHERE organization_id = NEW.organization_id AND observation_id = NEW.observation_id
                      AND connection_id = NEW.connection_id AND request_digest = NEW.request_digest
                      AND state = NEW.final_state AND completed_at = NEW.recorded_at);
END;

CREATE TRIGGER observation_receipts_no_update BEFORE UPDATE ON observation_receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: observation receipts are append-only');
END;

CREATE TRIGGER observation_receipts_no_delete BEFORE DELETE ON observation_receipts
BEGIN
  SELECT RAISE(ABORT, 'zeocore-rule: observation receipts are append-only');
END;
