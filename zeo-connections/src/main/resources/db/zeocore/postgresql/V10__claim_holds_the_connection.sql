-- ZeoCore store, PostgreSQL dialect, version 10 (issue 40): the claim holds the connection it was checked against.
--
-- Until this version the effect orchestrator read the connection (a round trip of its own, and a statement for the
-- server) before every claim, checked it, and then claimed: a change committed between the read and the claim went
-- unseen. This overload of zeocore_claim takes the document of the connection the caller checked and, in the
-- statement that claims, compares it with the stored row of that connection in the organization: if the row is
-- another document, or gone, it raises SQLSTATE ZC003 before writing anything (the caller reads the connection again,
-- checks it again and claims with what it read). So the orchestrator checks the connection it last read and needs no
-- read before a claim; the connection an effect was dispatched with is the one stored when its claim's statement
-- began. The comparison reads the committed row without locking it: a change committed while the claim's statement
-- runs orders after the claim, as a change committed just after it would.
--
-- The claim of version 8 (15 parameters, no connection) stays for builds that call it.

CREATE FUNCTION zeocore_claim(
    p_organization_id TEXT, p_nonce TEXT, p_nonce_recorded_at BIGINT,
    p_execution_id TEXT, p_connection_id TEXT, p_connector_revision TEXT, p_operation_id TEXT,
    p_authorization_id TEXT, p_idempotency_key TEXT, p_authorization_digest TEXT, p_request_digest TEXT,
    p_created_at BIGINT, p_states TEXT[], p_updated_ats BIGINT[], p_completed_ats BIGINT[],
    p_connection_document TEXT)
  RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  last_snapshot INTEGER := array_length(p_states, 1);
BEGIN
  PERFORM ${flyway:defaultSchema}.zeocore_require_read_committed();
  IF NOT EXISTS (SELECT 1 FROM ${flyway:defaultSchema}.connections
                 WHERE organization_id = p_organization_id AND connection_id = p_connection_id
                   AND document = p_connection_document) THEN
    RAISE EXCEPTION 'zeocore-connection: the connection changed since it was checked' USING ERRCODE = 'ZC003';
  END IF;
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
