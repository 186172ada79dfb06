-- ZeoCore store, SQLite dialect, version 9 (issue 38): target health shared across the processes that share the file.
--
-- target_health: one row per target that is cooling, or whose cooldown ended and awaits its probe's answer. Times are
-- the DATABASE's clock (epoch microseconds), so processes agree about a cooldown. A cooldown is written as "now + its
-- length" (an existing later end is kept), the probe lease is taken with one conditional UPDATE (the cooldown is over
-- and no unexpired lease is held), and the row is deleted when the probe answers. Mutable by design, like
-- recovery_leases: it is a cache of what providers said, never evidence of an effect, and carries no provider text.

CREATE TABLE target_health (
  target_id     TEXT    NOT NULL PRIMARY KEY,
  cause         TEXT    NOT NULL CHECK (cause IN ('timeout', 'transient', 'rate_limit', 'malformed_response',
    'validation', 'authorization', 'authentication', 'cancelled', 'permanent')),
  reason        TEXT    NOT NULL CHECK (reason IN ('retry_after', 'repeated_failures', 'probe_failed')),
  cooling_until INTEGER NOT NULL,
  probe_holder  TEXT,
  probe_until   INTEGER,
  CHECK (length(target_id) BETWEEN 1 AND 128),
  CHECK ((probe_holder IS NULL) = (probe_until IS NULL))
) WITHOUT ROWID;
