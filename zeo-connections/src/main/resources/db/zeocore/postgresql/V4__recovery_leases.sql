-- ZeoCore store, PostgreSQL dialect, version 4 (issue 19): staleness by the database's clock and recovery leases.
-- Same tables and guarantees as db/zeocore/sqlite/V4__recovery_leases.sql.
--
-- dispatch_clock: when each execution reached DISPATCH_STARTED, by the DATABASE SERVER's clock (clock_timestamp(),
-- epoch microseconds), written by the trigger below in the claim transaction. Recovery compares it with the server's
-- clock in the same query, so application hosts whose clocks disagree never presume a fresh dispatch orphaned.
-- Append-only (UPDATE, DELETE and TRUNCATE refused).
--
-- recovery_leases: which recovery sweeper reconciles an execution, until when (server clock). Taken in a short
-- transaction (INSERT ... ON CONFLICT DO UPDATE ... WHERE the lease expired), deleted after the reconciliation; an
-- expired lease (its holder died) can be taken over. Mutable by design.

CREATE TABLE dispatch_clock (
  organization_id TEXT   NOT NULL,
  execution_id    TEXT   NOT NULL,
  started_db_at   BIGINT NOT NULL,
  CONSTRAINT dispatch_clock_pkey PRIMARY KEY (organization_id, execution_id),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
);

CREATE FUNCTION executions_dispatch_clock() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${flyway:defaultSchema}.dispatch_clock (organization_id, execution_id, started_db_at)
  VALUES (NEW.organization_id, NEW.execution_id, (extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT);
  RETURN NULL;
END;
$$;

CREATE TRIGGER executions_dispatch_clock_on_update AFTER UPDATE OF state ON executions
  FOR EACH ROW WHEN (NEW.state = 'DISPATCH_STARTED' AND OLD.state <> 'DISPATCH_STARTED')
  EXECUTE FUNCTION executions_dispatch_clock();
CREATE TRIGGER executions_dispatch_clock_on_insert AFTER INSERT ON executions
  FOR EACH ROW WHEN (NEW.state = 'DISPATCH_STARTED')
  EXECUTE FUNCTION executions_dispatch_clock();

CREATE TRIGGER dispatch_clock_no_update BEFORE UPDATE ON dispatch_clock
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('the dispatch clock is append-only');
CREATE TRIGGER dispatch_clock_no_delete BEFORE DELETE ON dispatch_clock
  FOR EACH ROW EXECUTE FUNCTION zeocore_refuse('the dispatch clock is append-only');
CREATE TRIGGER dispatch_clock_no_truncate BEFORE TRUNCATE ON dispatch_clock
  FOR EACH STATEMENT EXECUTE FUNCTION zeocore_refuse('the dispatch clock is append-only');

CREATE TABLE recovery_leases (
  organization_id TEXT   NOT NULL,
  execution_id    TEXT   NOT NULL,
  holder          TEXT   NOT NULL,
  expires_db_at   BIGINT NOT NULL,
  CONSTRAINT recovery_leases_pkey PRIMARY KEY (organization_id, execution_id)
);
