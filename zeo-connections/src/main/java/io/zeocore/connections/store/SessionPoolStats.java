package io.zeocore.connections.store;

/**
 * A snapshot of the connection pool a store owns (the pool of a {@code jdbc:postgresql:} URL,
 * {@link JdbcConnectionStore.Builder#poolSize}), for metrics and health. Counts only; taken without touching the
 * database.
 *
 * @param max the most connections the pool opens
 * @param active connections lent to an operation now
 * @param idle connections open and waiting to be lent
 * @param pending callers waiting for a connection because all {@code max} are lent
 */
public record SessionPoolStats(int max, int active, int idle, int pending) {}
