/**
 * Exact authorization verification: {@link io.zeocore.connections.authorization.ExactAuthorizationVerifier} (the
 * ordered checks), the {@link io.zeocore.connections.authorization.SignatureVerifier} SPI with its Ed25519
 * implementation (BouncyCastle's lightweight API when present, else the JDK's),
 * {@link io.zeocore.connections.authorization.AuthorizationSigner} and
 * {@link io.zeocore.connections.authorization.Ed25519Keys}.
 */
@NullMarked
package io.zeocore.connections.authorization;

import org.jspecify.annotations.NullMarked;
