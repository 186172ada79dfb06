/**
 * Exact authorization verification: {@link io.zeocore.connections.authorization.ExactAuthorizationVerifier} (the
 * ordered checks), the {@link io.zeocore.connections.authorization.SignatureVerifier} SPI with its Ed25519 (BouncyCastle when present, else JDK)
 * implementation, {@link io.zeocore.connections.authorization.AuthorizationSigner} and
 * {@link io.zeocore.connections.authorization.Ed25519Keys}.
 */
package io.zeocore.connections.authorization;
