package io.zeocore.connections.authorization;

import io.zeocore.connections.contract.AuthorizationCanonicalForm;
import io.zeocore.connections.contract.EffectAuthorization;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verifies Ed25519 signatures (JDK EdDSA, no extra dependency) over
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

  private final Map<String, List<PublicKey>> trustRoots;

  /**
   * @param trustRoots issuer to its Ed25519 public keys; at least one issuer, each with at least one key
   * @throws IllegalArgumentException for an empty map, an issuer without keys or a key that is not Ed25519
   */
  public Ed25519SignatureVerifier(Map<String, ? extends List<? extends PublicKey>> trustRoots) {
    if (trustRoots == null || trustRoots.isEmpty()) {
      throw new IllegalArgumentException("trust roots must map at least one issuer to its public keys");
    }
    Map<String, List<PublicKey>> copy = new LinkedHashMap<>();
    trustRoots.forEach((issuer, keys) -> {
      if (issuer == null || issuer.isBlank()) {
        throw new IllegalArgumentException("trust root issuer must not be empty");
      }
      if (keys == null || keys.isEmpty()) {
        throw new IllegalArgumentException("trust root " + issuer + " must have at least one public key");
      }
      copy.put(issuer, keys.stream()
          .map(key -> (PublicKey) Ed25519Keys.requireEd25519(key, "trust root " + issuer + " key"))
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
    List<PublicKey> keys = trustRoots.get(authorization.issuer());
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
    for (PublicKey key : keys) {
      try {
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(key);
        verifier.update(payload);
        if (verifier.verify(signature)) {
          return true;
        }
      } catch (GeneralSecurityException | RuntimeException e) {
        // a malformed signature for this key: try the next one
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

  @Override
  public String toString() {
    return "Ed25519SignatureVerifier[issuers=" + trustRoots.keySet() + "]";
  }
}
