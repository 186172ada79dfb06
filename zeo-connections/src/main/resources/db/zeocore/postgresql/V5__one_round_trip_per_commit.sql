-- ZeoCore store, PostgreSQL dialect, version 5 (issue 20): one round trip per effect commit.
--
-- An effect commits twice: the claim (nonce, execution at CREATED, compare-and-set through the snapshots up to
-- DISPATCH_STARTED) and the outcome (confirmation evidence, compare-and-set from the state the receipt implies,
-- receipt). Sent statement by statement each costs a round trip per statement plus the transaction's own (isolation
-- level, commit): five for the claim, six for the outcome. These two functions do the same writes, in the same order,
-- with the same tables, constraints and guard triggers deciding every rule, in one statement: the store calls each
-- as a statement of its own in auto-commit mode, so the statement's transaction is the commit, durable when the call
-- returns.
--
-- Both refuse to run under any isolation level but READ COMMITTED (SQLSTATE ZC002): the store's guarantees are stated
-- for it (a concurrent duplicate waits and fails with 23505; a compare-and-set that loses a race matches no row).
-- The store then runs the call inside a transaction it sets to READ COMMITTED itself. The outcome's compare-and-set
-- matching no row rolls back the evidence written before it and fails with SQLSTATE ZC001; the store reads the row
-- to say why. The functions run with the caller's privileges (SECURITY INVOKER) and name every table with the schema.

CREATE FUNCTION zeocore_require_read_committed() RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'zeocore-isolation: ZeoCore''s writes need READ COMMITTED'
      USING ERRCODE = 'ZC002';
  END IF;
END;
$$;

-- The claim. p_states, p_updated_ats and p_completed_ats hold the snapshot chain (the first is CREATED); each later
-- snapshot is a compare-and-set from the one before it.
CREATE FUNCTION zeocore_claim(
    p_organization_id TEXT, p_nonce TEXT, p_nonce_recorded_at BIGINT,
    p_execution_id TEXT, p_connection_id TEXT, p_connector_revision TEXT, p_operation_id TEXT,
    p_authorization_id TEXT, p_idempotency_key TEXT, p_authorization_digest TEXT, p_request_digest TEXT,
    p_created_at BIGINT, p_states TEXT[], p_updated_ats BIGINT[], p_completed_ats BIGINT[])
  RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  moved INTEGER;
BEGIN
  PERFORM ${flyway:defaultSchema}.zeocore_require_read_committed();
  INSERT INTO ${flyway:defaultSchema}.authorization_nonces (organization_id, nonce, recorded_at)
  VALUES (p_organization_id, p_nonce, p_nonce_recorded_at);
  INSERT INTO ${flyway:defaultSchema}.executions (organization_id, execution_id, connection_id, connector_revision,
      operation_id, authorization_id, idempotency_key, authorization_digest, request_digest, holds_identity, state,
      created_at, updated_at, completed_at)
  VALUES (p_organization_id, p_execution_id, p_connection_id, p_connector_revision, p_operation_id,
      p_authorization_id, p_idempotency_key, p_authorization_digest, p_request_digest, 1, p_states[1], p_created_at,
      p_updated_ats[1], p_completed_ats[1]);
  FOR i IN 2 .. coalesce(array_length(p_states, 1), 1) LOOP
    UPDATE ${flyway:defaultSchema}.executions
       SET state = p_states[i], updated_at = p_updated_ats[i], completed_at = p_completed_ats[i]
     WHERE organization_id = p_organization_id AND execution_id = p_execution_id AND state = p_states[i - 1];
    GET DIAGNOSTICS moved = ROW_COUNT;
    IF moved <> 1 THEN
      PERFORM ${flyway:defaultSchema}.zeocore_rule('execution state changed concurrently');
    END IF;
  END LOOP;
  RETURN 1;
END;
$$;

-- The outcome. p_evidence_ref NULL: no confirmation evidence. p_expected_state NULL: the execution may be in any
-- pre-dispatch state. The identity columns must all match the stored row.
CREATE FUNCTION zeocore_commit_outcome(
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
    INSERT INTO ${flyway:defaultSchema}.evidence_references (organization_id, execution_id, evidence_ref)
    VALUES (p_organization_id, p_execution_id, p_evidence_ref);
    INSERT INTO ${flyway:defaultSchema}.confirmation_evidence (organization_id, execution_id, evidence_ref,
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
