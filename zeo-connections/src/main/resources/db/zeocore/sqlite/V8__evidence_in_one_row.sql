-- ZeoCore store, SQLite dialect, version 8 (issue 20): an evidence reference and its confirmation in one row.
--
-- On a fast disk a commit costs about one page write per b-tree it touches. Until this version an effect's outcome
-- with confirmation evidence wrote four b-trees for it: evidence_references (a rowid table and the two unique
-- indexes (organization, evidence_ref) and (organization, execution, evidence_ref)) and confirmation_evidence (keyed
-- by (organization, evidence_ref)). Both now live in one WITHOUT ROWID table with one index, two b-trees:
--
--   evidence_references  keyed by (organization_id, execution_id, evidence_ref), the key receipts refer to, with
--                        a unique index on (organization_id, evidence_ref): a reference names one execution's
--                        evidence; sequence counts the execution's own references from 1 in the order they were
--                        recorded; observed_at and confirmation_digest are both set (confirmation evidence) or both
--                        null (a bare reference) when the row is inserted, and never change.
--
-- The rules of the two tables stay the schema's own: a reference is recorded once per organization and only for an
-- execution of that organization; evidence is append-only; only the digest of what the provider returned is stored;
-- a receipt may name only a reference recorded for its own execution (its foreign key and its insert guard, both
-- unchanged, name the table by its name). Confirmation evidence without its reference cannot exist any more: they are
-- one row.
--
-- The table keeps its name so that receipts, which refer to it, need no rebuild. Existing references are copied
-- aside in their order, each with its confirmation if it had one; the two tables are dropped and the new one is
-- created and filled. Foreign keys are deferred to the commit for this migration only: dropping the old table
-- leaves the receipts that name a reference without their parent row until the copy puts it back, and the commit
-- fails, changing nothing, if any receipt is still without it.

PRAGMA defer_foreign_keys = ON;

CREATE TABLE evidence_copy AS
SELECT r.organization_id AS organization_id, r.execution_id AS execution_id, r.evidence_ref AS evidence_ref,
       ROW_NUMBER() OVER (PARTITION BY r.organization_id, r.execution_id ORDER BY r.sequence) AS sequence,
       c.observed_at AS observed_at, c.confirmation_digest AS confirmation_digest
FROM evidence_references r
LEFT JOIN confirmation_evidence c
  ON c.organization_id = r.organization_id AND c.evidence_ref = r.evidence_ref AND c.execution_id = r.execution_id;

DROP TABLE confirmation_evidence;
DROP TABLE evidence_references;

CREATE TABLE evidence_references (
  organization_id     TEXT    NOT NULL,
  execution_id        TEXT    NOT NULL,
  evidence_ref        TEXT    NOT NULL,
  sequence            INTEGER NOT NULL CHECK (sequence > 0),
  observed_at         INTEGER,
  confirmation_digest TEXT
    CHECK (length(confirmation_digest) = 64 AND confirmation_digest NOT GLOB '*[^0-9a-f]*'),
  CHECK ((observed_at IS NULL) = (confirmation_digest IS NULL)),
  PRIMARY KEY (organization_id, execution_id, evidence_ref),
  FOREIGN KEY (organization_id, execution_id) REFERENCES executions (organization_id, execution_id)
) WITHOUT ROWID;

CREATE UNIQUE INDEX evidence_references_ref_once ON evidence_references (organization_id, evidence_ref);

INSERT INTO evidence_references (organization_id, execution_id, evidence_ref, sequence, observed_at,
  confirmation_digest)
SELECT organization_id, execution_id, evidence_ref, sequence, observed_at, confirmation_digest FROM evidence_copy;

DROP TABLE evidence_copy;

CREATE TRIGGER evidence_references_insert_guard BEFORE INSERT ON evidence_references
BEGIN
  SELECT RAISE(ABORT, 'zeocore-conflict: evidence reference already exists')
  WHERE EXISTS (SELECT 1 FROM evidence_references
                WHERE organization_id = NEW.organization_id AND evidence_ref = NEW.evidence_ref);
  SELECT RAISE(ABORT, 'zeocore-conflict: evidence position already exists')
  WHERE EXISTS (SELECT 1 FROM evidence_references
                WHERE organization_id = NEW.organization_id AND execution_id = NEW.execution_id
                  AND sequence = NEW.sequence);
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
