/**
 * The store: the ports the orchestrators use ({@link io.zeocore.connections.store.ConnectionStore},
 * {@link io.zeocore.connections.store.EffectStore}, {@link io.zeocore.connections.store.EffectRecoveryStore},
 * {@link io.zeocore.connections.store.ReadStore}), the read-only
 * {@link io.zeocore.connections.store.StoreIntrospection} that health, endpoints and metrics use, and their one SQL
 * implementation, {@link io.zeocore.connections.store.JdbcConnectionStore}: a thin facade over package-private
 * classes per aggregate (effects, nonces, reads, connections and revisions, recovery queries), with every
 * SQLite/PostgreSQL difference in one dialect strategy each, its schema migrated by
 * {@link io.zeocore.connections.store.ZeoCoreSchema}.
 *
 * <p>Every state change is a compare-and-set; history, receipts, evidence, nonces and connector revisions are
 * append-only, enforced by the schema's triggers as well as by the code. Every read is organization-scoped. Failures
 * are {@link io.zeocore.connections.store.ConnectionStoreException}s with fixed messages that never carry stored
 * values.
 */
@NullMarked
package io.zeocore.connections.store;

import org.jspecify.annotations.NullMarked;
