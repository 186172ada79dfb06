-- ZeoCore store, PostgreSQL dialect, version 9 (issue 38): target health shared across instances.
-- Same table and rules as db/zeocore/sqlite/V9__target_health.sql.
--
-- target_health: one row per target that is cooling, or whose cooldown ended and awaits its probe's answer. Times are
-- the DATABASE SERVER's clock (clock_timestamp(), epoch microseconds), so instances whose clocks disagree agree about
-- a cooldown. A cooldown is written as "now + its length" (an existing later end is kept), the probe lease is taken
-- with one conditional UPDATE (the cooldown is over and no unexpired lease is held), and the row is deleted when the
-- probe answers. Mutable by design, like recovery_leases: it is a cache of what providers said, never evidence of an
-- effect, and carries no provider text (a target id, a failure kind, a reason, times and an instance id).

CREATE TABLE target_health (
  target_id     TEXT   NOT NULL,
  cause         TEXT   NOT NULL,
  reason        TEXT   NOT NULL,
  cooling_until BIGINT NOT NULL,
  probe_holder  TEXT,
  probe_until   BIGINT,
  CONSTRAINT target_health_pkey PRIMARY KEY (target_id),
  CONSTRAINT target_health_target_id CHECK (target_id ~ '^[a-zA-Z0-9][a-zA-Z0-9_.:/-]{0,127}$'),
  CONSTRAINT target_health_cause CHECK (cause IN ('timeout', 'transient', 'rate_limit', 'malformed_response',
    'validation', 'authorization', 'authentication', 'cancelled', 'permanent')),
  CONSTRAINT target_health_reason CHECK (reason IN ('retry_after', 'repeated_failures', 'probe_failed')),
  CONSTRAINT target_health_probe CHECK ((probe_holder IS NULL) = (probe_until IS NULL))
);
