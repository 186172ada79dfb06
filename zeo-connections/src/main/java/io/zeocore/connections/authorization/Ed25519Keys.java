package io.zeocore.connections.authorization;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.EdECKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Ed25519 keys with the JDK alone: generation and PEM encoding ({@code PUBLIC KEY} = X.509 SubjectPublicKeyInfo,
 * {@code PRIVATE KEY} = PKCS #8), the formats {@code openssl genpkey -algorithm ed25519} writes. Only Ed25519 keys are
 * accepted (not Ed448, not other algorithms).
 */
public final class Ed25519Keys {

  private static final String PUBLIC_LABEL = "PUBLIC KEY";
  private static final String PRIVATE_LABEL = "PRIVATE KEY";

  private Ed25519Keys() {}

  /** A fresh Ed25519 key pair from the JDK's default secure random source. */
  public static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 is required of every Java 15+ platform", e);
    }
  }

  /** {@code -----BEGIN PUBLIC KEY-----} PEM of an Ed25519 public key. */
  public static String publicKeyPem(PublicKey key) {
    return pem(PUBLIC_LABEL, requireEd25519(key, "public key").getEncoded());
  }

  /** {@code -----BEGIN PRIVATE KEY-----} PEM (unencrypted PKCS #8) of an Ed25519 private key. */
  public static String privateKeyPem(PrivateKey key) {
    return pem(PRIVATE_LABEL, requireEd25519(key, "private key").getEncoded());
  }

  /**
   * Reads an Ed25519 public key from PEM ({@code PUBLIC KEY}).
   *
   * @throws IllegalArgumentException if the text is not such a key
   */
  public static PublicKey parsePublicKeyPem(String pem) {
    return parsePem(pem, PUBLIC_LABEL, "public key",
        (factory, der) -> factory.generatePublic(new X509EncodedKeySpec(der)));
  }

  /**
   * Reads an Ed25519 private key from unencrypted PKCS #8 PEM ({@code PRIVATE KEY}).
   *
   * @throws IllegalArgumentException if the text is not such a key; the message never contains key material
   */
  public static PrivateKey parsePrivateKeyPem(String pem) {
    return parsePem(pem, PRIVATE_LABEL, "private key",
        (factory, der) -> factory.generatePrivate(new PKCS8EncodedKeySpec(der)));
  }

  /** How one kind of key is generated from its DER encoding. */
  @FunctionalInterface
  private interface KeyDecoder<K extends Key> {
    K decode(KeyFactory factory, byte[] der) throws GeneralSecurityException;
  }

  /** The Ed25519 key of kind {@code what} in {@code pem}'s {@code label} block; the message never repeats the text. */
  private static <K extends Key> K parsePem(String pem, String label, String what, KeyDecoder<K> decoder) {
    byte[] der = der(pem, label);
    try {
      return requireEd25519(decoder.decode(KeyFactory.getInstance("Ed25519"), der), what);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 " + what);
    }
  }

  static <K extends Key> K requireEd25519(K key, String what) {
    if (key == null) {
      throw new IllegalArgumentException(what + " is required");
    }
    if (!(key instanceof EdECKey edec)
        || !NamedParameterSpec.ED25519.getName().equalsIgnoreCase(edec.getParams().getName())) {
      throw new IllegalArgumentException(what + " must be an Ed25519 key");
    }
    return key;
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  private static byte[] der(String pem, String label) {
    if (pem == null) {
      throw new IllegalArgumentException("PEM text is required");
    }
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    int from = pem.indexOf(begin);
    int to = pem.indexOf(end);
    if (from < 0 || to < from) {
      throw new IllegalArgumentException("expected a PEM block labelled " + label);
    }
    String body = pem.substring(from + begin.length(), to).replaceAll("\\s", "");
    try {
      return Base64.getDecoder().decode(body.getBytes(StandardCharsets.US_ASCII));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("PEM block " + label + " is not valid base64");
    }
  }
}
