/**
 * Secret custody: organization-scoped secret storage and the custody window in which provider calls use secrets.
 *
 * <ul>
 *   <li>{@link io.zeocore.connections.custody.SecretStore}: {@code put}, {@code resolve}, {@code rotate},
 *       {@code delete}, {@code health}; handles {@code zc0-ks:<organization>:<uuid4>} scope-checked before any backend
 *       access; one-shot expiring {@link io.zeocore.connections.custody.SecretLease}s (default 300 s).
 *   <li>{@link io.zeocore.connections.custody.KeyStoreSecretStore}: a PKCS#12 file ({@code 0600}, written atomically);
 *       {@link io.zeocore.connections.custody.InMemorySecretStore} for tests and samples.
 *   <li>{@link io.zeocore.connections.custody.SecretStore#redeem}: the public, scoped, one-shot custody window for
 *       dispatchers ZeoCore did not write: a lease is redeemed once (and spent even when the callback throws), the
 *       material exists only inside the callback as {@link io.zeocore.connections.custody.SecretMaterial} and is
 *       zeroed after it; whatever the callback throws becomes {@code CUSTODY_PROVIDER_FAILED} without cause.
 *   <li>{@link io.zeocore.connections.custody.CustodyEffectDispatcher},
 *       {@link io.zeocore.connections.custody.CustodyEffectReconciler} and
 *       {@link io.zeocore.connections.custody.CustodyReadDispatcher}: resolve a lease, read the material once,
 *       hand it to a provider callback, zero it afterwards; effects and reads alike.
 *   <li>{@link io.zeocore.connections.custody.CustodyException}: every failure, with a
 *       {@link io.zeocore.connections.custody.CustodyErrorCode}, a fixed message and no cause; the dispatcher reports
 *       failures before the provider call as {@link io.zeocore.connections.effect.DispatchNotStartedException} (the effect
 *       ends {@code FAILED_SAFE}, not {@code AMBIGUOUS}).
 * </ul>
 *
 * <p>Secret material never appears in exception messages or causes, logs, {@code toString}, records, receipts or
 * results; handles never appear in exception messages or logs.
 */
@NullMarked
package io.zeocore.connections.custody;

import org.jspecify.annotations.NullMarked;
