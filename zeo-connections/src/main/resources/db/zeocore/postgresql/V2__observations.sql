-- ZeoCore connections store, PostgreSQL dialect, version 2: observations (reads) and their one receipt each.
-- Same conventions as V1: instants are BIGINT epoch microseconds; uniqueness is decided by constraints (SQLSTATE
-- 23505), rules by guard triggers raising 'zeocore-rule: ...' (SQLSTATE 23514); functions name their tables with
-- ${flyway:defaultSchema}.

CREATE TABLE observations (
  organization_id      TEXT   NOT NULL,
  observation_id       TEXT   NOT NULL,
  connection_id        TEXT   NOT NULL,
  connector_revision   TEXT   NOT NULL,
  operation_id         TEXT   NOT NULL,
  authorization_id     TEXT   NOT NULL,
  idempotency_key      TEXT   NOT NULL,
  authorization_digest TEXT   NOT NULL,
  request_digest       TEXT   NOT NULL,
  state                TEXT   NOT NULL CHECK (state IN ('CLAIMED', 'CONFIRMED', 'FAILED_SAFE')),
  created_at           BIGINT NOT NULL,
  completed_at         BIGINT,
  CONSTRAINT observations_pkey PRIMARY KEY (organization_id, observation_id),
  CONSTRAINT observations_idempotency_identity
    UNIQUE (organization_id, connection_id, connector_revision, operation_id, idempotency_key),
  CHECK ((state = 'CLAIMED') = (completed_at IS NULL)),
  CHECK (completed_at IS NULL OR completed_at >= created_at)
);

CREATE FUNCTION observations_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state IS DISTINCT FROM 'CLAIMED' THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('new observation must start CLAIMED');
  END IF;
  RETURN NEW;
END;
$$;

CREATE FUNCTION observations_update_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.organization_id IS DISTINCT FROM OLD.organization_id
     OR NEW.observation_id IS DISTINCT FROM OLD.observation_id
     OR NEW.connection_id IS DISTINCT FROM OLD.connection_id
     OR NEW.connector_revision IS DISTINCT FROM OLD.connector_revision
     OR NEW.operation_id IS DISTINCT FROM OLD.operation_id
     OR NEW.authorization_id IS DISTINCT FROM OLD.authorization_id
     OR NEW.idempotency_key IS DISTINCT FROM OLD.idempotency_key
     OR NEW.authorization_digest IS DISTINCT FROM OLD.authorization_digest
     OR NEW.request_digest IS DISTINCT FROM OLD.request_digest
     OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('observation identity is immutable');
  END IF;
  IF OLD.state IS DISTINCT FROM 'CLAIMED' THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('observation is already terminal');
  END IF;
  IF NEW.state NOT IN ('CONFIRMED', 'FAILED_SAFE') THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('committed observation must be terminal');
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER observations_insert_guard BEFORE INSERT ON observations
  FOR EACH ROW EXECUTE FUNCTION observations_insert_guard();
CREATE TRIGGER observations_update_guard BEFORE UPDATE ON observations
  FOR EACH ROW EXECUTE FUNCTION observations_update_guard();
CREATE TRIGGER observations_no_delete BEFORE DELETE ON observations
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('observations are never deleted');
CREATE TRIGGER observations_no_truncate BEFORE TRUNCATE ON observations
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('observations are never deleted');

-- The inline result is canonical JSON text; artifacts are stored as metadata only.
CREATE TABLE observation_receipts (
  organization_id         TEXT   NOT NULL,
  observation_id          TEXT   NOT NULL,
  connection_id           TEXT   NOT NULL,
  final_state             TEXT   NOT NULL CHECK (final_state IN ('CONFIRMED', 'FAILED_SAFE')),
  request_digest          TEXT   NOT NULL,
  result_digest           TEXT,
  inline_result           TEXT,
  artifact_ref            TEXT,
  artifact_content_sha256 TEXT,
  artifact_size_bytes     BIGINT,
  artifact_media_type     TEXT,
  error_code              TEXT,
  error_message           TEXT,
  recorded_at             BIGINT NOT NULL,
  CONSTRAINT observation_receipts_pkey PRIMARY KEY (organization_id, observation_id),
  CHECK ((error_code IS NULL) = (error_message IS NULL)),
  FOREIGN KEY (organization_id, observation_id) REFERENCES observations (organization_id, observation_id)
);

CREATE FUNCTION observation_receipts_insert_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  observation RECORD;
BEGIN
  -- FOR SHARE: the observation cannot change between this check and the commit (it is terminal by then anyway)
  SELECT connection_id, request_digest, state, completed_at INTO observation
    FROM ${flyway:defaultSchema}.observations
    WHERE organization_id = NEW.organization_id AND observation_id = NEW.observation_id FOR SHARE;
  IF NOT FOUND THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('observation claim does not exist');
  END IF;
  IF observation.connection_id IS DISTINCT FROM NEW.connection_id
     OR observation.request_digest IS DISTINCT FROM NEW.request_digest
     OR observation.state IS DISTINCT FROM NEW.final_state
     OR observation.completed_at IS DISTINCT FROM NEW.recorded_at THEN
    PERFORM ${flyway:defaultSchema}.zeocore_rule('observation receipt does not match its record');
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER observation_receipts_insert_guard BEFORE INSERT ON observation_receipts
  FOR EACH ROW EXECUTE FUNCTION observation_receipts_insert_guard();
CREATE TRIGGER observation_receipts_no_update BEFORE UPDATE ON observation_receipts
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('observation receipts are append-only');
CREATE TRIGGER observation_receipts_no_delete BEFORE DELETE ON observation_receipts
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('observation receipts are append-only');
CREATE TRIGGER observation_receipts_no_truncate BEFORE TRUNCATE ON observation_receipts
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('observation receipts are append-only');
