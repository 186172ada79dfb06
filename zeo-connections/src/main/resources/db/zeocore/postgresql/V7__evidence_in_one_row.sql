-- ZeoCore store, PostgreSQL dialect, version 7 (issue 20): an evidence reference and its confirmation in one row.
--
-- Until this version confirmation evidence was a row of its own table beside its reference: per confirmed outcome
-- one more tuple with its primary key, its foreign-key check and its guard trigger's lookup. The confirmation is now
-- two columns of the reference's row in evidence_references:
--
--   observed_at, confirmation_digest  both set (confirmation evidence) or both null (a bare reference) when the row
--                                     is inserted; evidence_references refuses every update, so they never change.
--
-- The rules of the two tables stay the schema's own: a reference is recorded once per organization and only for an
-- execution of that organization; evidence is append-only; only the digest of what the provider returned is stored
-- (64 lowercase hex); a receipt may name only a reference recorded for its own execution. Confirmation evidence
-- without its reference cannot exist any more: they are one row. zeocore_commit_outcome writes the one row; its
-- signature does not change.
--
-- Existing confirmations are copied into their references' rows with the update guard switched off for that one
-- statement, and the table is dropped.

ALTER TABLE evidence_references
  ADD COLUMN observed_at BIGINT,
  ADD COLUMN confirmation_digest TEXT,
  ADD CONSTRAINT evidence_references_digest CHECK (confirmation_digest ~ '^[0-9a-f]{64}$'),
  ADD CONSTRAINT evidence_references_confirmation CHECK ((observed_at IS NULL) = (confirmation_digest IS NULL));

ALTER TABLE evidence_references DISABLE TRIGGER evidence_references_no_update;
UPDATE evidence_references r
SET observed_at = c.observed_at, confirmation_digest = c.confirmation_digest
FROM confirmation_evidence c
WHERE c.organization_id = r.organization_id AND c.execution_id = r.execution_id AND c.evidence_ref = r.evidence_ref;
ALTER TABLE evidence_references ENABLE TRIGGER evidence_references_no_update;

DROP TABLE confirmation_evidence;
DROP FUNCTION confirmation_evidence_insert_guard();

-- The outcome, its evidence one row. p_evidence_ref NULL: no confirmation evidence. p_expected_state NULL: the
-- execution may be in any pre-dispatch state. The identity columns must all match the stored row.
CREATE OR REPLACE FUNCTION zeocore_commit_outcome(
    p_organization_id TEXT, p_execution_id TEXT,
    p_evidence_ref TEXT, p_observed_at BIGINT, p_confirmation_digest TEXT,
    p_state TEXT, p_updated_at BIGINT, p_completed_at BIGINT, p_expected_state TEXT,
    p_connection_id TEXT, p_connector_revision TEXT, p_operation_id TEXT, p_authorization_id TEXT,
    p_idempotency_key TEXT, p_authorization_digest TEXT, p_request_digest TEXT, p_created_at BIGINT,
    p_receipt_connection_id TEXT, p_final_state TEXT, p_error_code TEXT, p_error_message TEXT, p_recorded_at BIGINT,
    p_dispatch_started_at BIGINT, p_resolved_at BIGINT, p_confirmation_evidence_ref TEXT,
    p_reconciliation_evidence TEXT, p_resolves_ambiguous_recorded_at BIGINT, p_reconciliation_attempt_evidence TEXT)
  RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  moved INTEGER;
BEGIN
  PERFORM ${flyway:defaultSchema}.zeocore_require_read_committed();
  IF p_evidence_ref IS NOT NULL THEN
    INSERT INTO ${flyway:defaultSchema}.evidence_references (organization_id, execution_id, evidence_ref,
        observed_at, confirmation_digest)
    VALUES (p_organization_id, p_execution_id, p_evidence_ref, p_observed_at, p_confirmation_digest);
  END IF;
  UPDATE ${flyway:defaultSchema}.executions
     SET state = p_state, updated_at = p_updated_at, completed_at = p_completed_at
   WHERE organization_id = p_organization_id AND execution_id = p_execution_id
     AND (CASE WHEN p_expected_state IS NULL
               THEN state IN ('CREATED', 'AUTHORIZATION_VERIFIED', 'PREPARED')
               ELSE state = p_expected_state END)
     AND connection_id = p_connection_id AND connector_revision = p_connector_revision
     AND operation_id = p_operation_id AND authorization_id = p_authorization_id
     AND idempotency_key = p_idempotency_key AND authorization_digest = p_authorization_digest
     AND request_digest = p_request_digest AND created_at = p_created_at;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved <> 1 THEN
    RAISE EXCEPTION 'zeocore-cas: the execution did not move' USING ERRCODE = 'ZC001';
  END IF;
  INSERT INTO ${flyway:defaultSchema}.receipts (organization_id, execution_id, connection_id, final_state,
      error_code, error_message, recorded_at, dispatch_started_at, resolved_at, confirmation_evidence_ref,
      reconciliation_evidence, resolves_ambiguous_recorded_at, reconciliation_attempt_evidence)
  VALUES (p_organization_id, p_execution_id, p_receipt_connection_id, p_final_state, p_error_code, p_error_message,
      p_recorded_at, p_dispatch_started_at, p_resolved_at, p_confirmation_evidence_ref, p_reconciliation_evidence,
      p_resolves_ambiguous_recorded_at, p_reconciliation_attempt_evidence);
  RETURN 1;
END;
$$;
