package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.AuthorizationCanonicalForm;
import io.zeocore.connections.contract.EffectAuthorization;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;

/**
 * Signs authorizations the way {@link Ed25519SignatureVerifier} verifies them: Ed25519 over
 * {@link AuthorizationCanonicalForm#signingPayload}, encoded as base64url without padding. For tests, sample
 * applications and in-process issuers; a production authority signs on its own side with the same canonical form.
 * Bound to one issuer: it refuses to sign an authorization that names another. Thread-safe.
 */
public final class AuthorizationSigner {

  /** What an authorization carries as its signature until it is signed; never verified. */
  private static final String UNSIGNED = "unsigned";

  private final String issuer;
  private final PrivateKey privateKey;

  /**
   * @param issuer the issuer this key signs for, not blank
   * @param privateKey an Ed25519 private key
   */
  public AuthorizationSigner(String issuer, PrivateKey privateKey) {
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException("issuer must be a non-empty string");
    }
    this.issuer = issuer;
    this.privateKey = Ed25519Keys.requireEd25519(privateKey, "private key");
  }

  /**
   * A copy of {@code authorization} whose signature covers every other field. The input's own {@code signature}
   * value is ignored (any placeholder will do).
   *
   * @throws IllegalArgumentException if the authorization names another issuer
   */
  public EffectAuthorization sign(EffectAuthorization authorization) {
    if (authorization == null) {
      throw new IllegalArgumentException("authorization is required");
    }
    if (!authorization.issuer().equals(issuer)) {
      throw new IllegalArgumentException("authorization names another issuer than this signer's");
    }
    try {
      Signature signer = Signature.getInstance("Ed25519");
      signer.initSign(privateKey);
      signer.update(AuthorizationCanonicalForm.signingPayload(authorization));
      return authorization.withSignature(Base64.getUrlEncoder().withoutPadding().encodeToString(signer.sign()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 signing failed");
    }
  }

  /**
   * The signed authorization {@code authorization} describes: as {@link #sign(EffectAuthorization)}, without a
   * placeholder signature to write. The builder's signature is set to a placeholder before it builds, replacing any.
   *
   * @throws IllegalArgumentException if a field is missing or breaks a rule, or the builder names another issuer
   */
  public EffectAuthorization sign(EffectAuthorization.Builder authorization) {
    if (authorization == null) {
      throw new IllegalArgumentException("authorization is required");
    }
    return sign(authorization.signature(UNSIGNED).build());
  }

  /** The issuer this signer signs for. */
  public String issuer() {
    return issuer;
  }

  /** Never shows key material. */
  @Override
  public String toString() {
    return "AuthorizationSigner[issuer=" + issuer + "]";
  }
}
