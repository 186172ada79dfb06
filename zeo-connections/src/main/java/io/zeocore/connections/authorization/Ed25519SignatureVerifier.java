package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.AuthorizationCanonicalForm;
import io.zeocore.connections.contract.EffectAuthorization;
import java.security.PublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Verifies Ed25519 signatures (BouncyCastle's lightweight API when it is on the class path, else JDK EdDSA) over
 * {@link AuthorizationCanonicalForm#signingPayload the canonical JSON of every field except the signature}, with the
 * keys trusted for the authorization's own issuer only (trust roots map issuer to public keys; several keys per
 * issuer allow rotation).
 *
 * <p>The signature is exactly the unpadded base64url (RFC 4648 §5, no {@code =}) of the 64-byte signature, as DESIGN
 * specifies: one authorization has one byte form and therefore one digest. A padded form, another alphabet, a
 * non-canonical encoding, a wrong length, an unknown issuer, a wrong key or any tampered field yields {@code false}
 * (which {@link ExactAuthorizationVerifier} reports as {@code SIGNATURE_UNVERIFIABLE}); this class never throws from
 * {@link #verifySignature}. Immutable and thread-safe.
 */
public final class Ed25519SignatureVerifier implements SignatureVerifier {

  private static final int SIGNATURE_LENGTH = 64;
  /** Unpadded base64 of 64 bytes: 21 groups of 4 characters for 63 bytes, then 2 characters for the last one. */
  private static final int UNPADDED_LENGTH = 86;

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

  /**
   * The 64 signature bytes, or {@code null} unless {@code text} is exactly the unpadded base64url encoding of 64
   * bytes: 86 characters of {@code [A-Za-z0-9_-]}, the unused low bits of the last one zero. Padding ({@code =} or
   * {@code ==}), the standard alphabet, whitespace and any other second spelling of the same bytes are refused, so
   * one authorization has exactly one byte form and one digest.
   */
  static byte @Nullable [] decode(String text) {
    if (text == null || text.length() != UNPADDED_LENGTH) {
      return null;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
        return null;
      }
    }
    byte[] bytes = Base64.getUrlDecoder().decode(text);
    if (bytes.length != SIGNATURE_LENGTH
        || !Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(text)) {
      return null;
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
