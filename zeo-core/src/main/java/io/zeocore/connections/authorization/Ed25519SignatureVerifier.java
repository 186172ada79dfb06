package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.AuthorizationCanonicalForm;
import io.zeocore.connections.contract.EffectAuthorization;
import java.security.PublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verifies Ed25519 signatures (BouncyCastle's lightweight API when it is on the class path, else JDK EdDSA) over
 * {@link AuthorizationCanonicalForm#signingPayload the canonical JSON of every field except the signature}, with the
 * keys trusted for the authorization's own issuer only (trust roots map issuer to public keys; several keys per
 * issuer allow rotation).
 *
 * <p>The signature is base64url of the 64-byte signature, without padding; a padded form is accepted too. Any other
 * alphabet, a non-canonical encoding, a wrong length, an unknown issuer, a wrong key or any tampered field yields
 * {@code false}; this class never throws from {@link #verifySignature}. Immutable and thread-safe.
 */
public final class Ed25519SignatureVerifier implements SignatureVerifier {

  private static final int SIGNATURE_LENGTH = 64;

  private final Map<String, List<Ed25519Engine.PreparedKey>> trustRoots;
  private final Ed25519Engine engine;

  /**
   * A verifier on the fastest Ed25519 implementation available: BouncyCastle's lightweight
   * {@code Ed25519PublicKeyParameters.verify} when {@code org.bouncycastle:bcprov-jdk18on} is on the class path (no JCA
   * provider is registered), otherwise the JDK's EdDSA. Both apply the same strict rules (canonical {@code S < L} and
   * point encodings, keys not of small order), so the choice changes the speed, never a verdict.
   *
   * @param trustRoots issuer to its Ed25519 public keys; at least one issuer, each with at least one key
   * @throws IllegalArgumentException for an empty map, an issuer without keys, a key that is not Ed25519, or an
   *     Ed25519 key that is not canonical or has small order
   */
  public Ed25519SignatureVerifier(Map<String, ? extends List<? extends PublicKey>> trustRoots) {
    this(trustRoots, Ed25519Engine.preferred());
  }

  /**
   * A verifier on the JDK's EdDSA whether or not BouncyCastle is present (same verdicts, slower); for comparisons and
   * for applications that want no third-party cryptography on this path.
   */
  public static Ed25519SignatureVerifier usingJdk(Map<String, ? extends List<? extends PublicKey>> trustRoots) {
    return new Ed25519SignatureVerifier(trustRoots, Ed25519Engine.jdk());
  }

  Ed25519SignatureVerifier(Map<String, ? extends List<? extends PublicKey>> trustRoots, Ed25519Engine engine) {
    this.engine = engine;
    if (trustRoots == null || trustRoots.isEmpty()) {
      throw new IllegalArgumentException("trust roots must map at least one issuer to its public keys");
    }
    Map<String, List<Ed25519Engine.PreparedKey>> copy = new LinkedHashMap<>();
    trustRoots.forEach((issuer, keys) -> {
      if (issuer == null || issuer.isBlank()) {
        throw new IllegalArgumentException("trust root issuer must not be empty");
      }
      if (keys == null || keys.isEmpty()) {
        throw new IllegalArgumentException("trust root " + issuer + " must have at least one public key");
      }
      copy.put(issuer, keys.stream()
          .map(key -> engine.prepare(Ed25519Engine.rawKey(
              Ed25519Keys.requireEd25519(key, "trust root " + issuer + " key"))))
          .toList());
    });
    this.trustRoots = Map.copyOf(copy);
  }

  /** A verifier trusting {@code keys} for {@code issuer}. */
  public static Ed25519SignatureVerifier of(String issuer, PublicKey... keys) {
    return new Ed25519SignatureVerifier(Map.of(issuer, List.of(keys)));
  }

  @Override
  public boolean verifySignature(EffectAuthorization authorization) {
    if (authorization == null) {
      return false;
    }
    List<Ed25519Engine.PreparedKey> keys = trustRoots.get(authorization.issuer());
    if (keys == null) {
      return false;
    }
    byte[] signature = decode(authorization.signature());
    if (signature == null) {
      return false;
    }
    byte[] payload;
    try {
      payload = AuthorizationCanonicalForm.signingPayload(authorization);
    } catch (RuntimeException e) {
      return false;
    }
    for (Ed25519Engine.PreparedKey key : keys) {
      if (key.verify(payload, signature)) { // never throws; false for a malformed signature: try the next key
        return true;
      }
    }
    return false;
  }

  /** The 64 signature bytes, or {@code null} unless {@code text} is canonical base64url (padding optional). */
  static byte[] decode(String text) {
    String unpadded = text.endsWith("==") ? text.substring(0, text.length() - 2)
        : text.endsWith("=") ? text.substring(0, text.length() - 1) : text;
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(unpadded);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (bytes.length != SIGNATURE_LENGTH
        || !Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(unpadded)) {
      return null;
    }
    if (!unpadded.equals(text) && !text.equals(Base64.getUrlEncoder().encodeToString(bytes))) {
      return null; // wrong amount of padding
    }
    return bytes;
  }

  /** The issuers with trusted keys. */
  public Set<String> issuers() {
    return trustRoots.keySet();
  }

  /** The Ed25519 implementation in use: {@code bouncycastle} or {@code jdk}. */
  public String implementation() {
    return engine.name();
  }

  @Override
  public String toString() {
    return "Ed25519SignatureVerifier[issuers=" + trustRoots.keySet() + ", " + engine.name() + "]";
  }
}
