package io.zeocore.connections.authorization;

import java.math.BigInteger;
import java.security.PublicKey;
import java.security.interfaces.EdECPublicKey;
import java.util.Arrays;

/**
 * One implementation of the Ed25519 verification equation (RFC 8032 §5.1.7) behind {@link Ed25519SignatureVerifier},
 * with the strict encoding rules that every implementation shares, so that the same inputs verify the same way
 * whichever implementation runs.
 *
 * <h2>Shared rules, checked here before any implementation sees the bytes</h2>
 * <ul>
 *   <li>A public key is the 32-byte RFC 8032 encoding; its {@code y} must be canonical ({@code y < p}), the point must
 *       decode ({@code x} exists, and {@code x = 0} only with a clear sign bit), and it must not be one of the eight
 *       points of small order (with such a key a forger succeeds for one message in eight without any secret).
 *       Violations are refused when the trust roots are built ({@link IllegalArgumentException}), never at
 *       verification time.
 *   <li>A signature is 64 bytes {@code R || S}; {@code S} must be canonical ({@code S < L}) and {@code R}'s {@code y}
 *       canonical ({@code y < p}). Anything else is {@code false} without calling the implementation.
 * </ul>
 * Implementations are stateless and thread-safe; a prepared key is immutable and thread-safe.
 */
abstract class Ed25519Engine {

  static final int KEY_LENGTH = 32;
  static final int SIGNATURE_LENGTH = 64;

  /** 2^255 - 19. */
  static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
  /** The order of the base point, 2^252 + 27742317777372353535851937790883648493. */
  static final BigInteger L = BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));
  private static final BigInteger D = BigInteger.valueOf(-121665)
      .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
  private static final BigInteger SQRT_MINUS_ONE = BigInteger.TWO.modPow(P.subtract(BigInteger.ONE)
      .shiftRight(2), P);
  /** The {@code y} coordinates of the eight small-order points: 1, p-1, 0 and the two of order 8. */
  private static final BigInteger[] SMALL_ORDER_Y = {
      BigInteger.ONE, P.subtract(BigInteger.ONE), BigInteger.ZERO,
      littleEndian(hex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")),
      littleEndian(hex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"))};

  /** A public key ready to verify: decoded once, used for every signature. */
  interface PreparedKey {

    /**
     * Whether {@code signature} (64 bytes, already checked canonical) is a valid Ed25519 signature of
     * {@code message}. Never throws for a malformed signature.
     */
    boolean verify(byte[] message, byte[] signature);
  }

  /** A short name for logs and benchmarks: {@code bouncycastle} or {@code jdk}. */
  abstract String name();

  /** Prepares a key that {@link #requireValidKey} accepted. */
  abstract PreparedKey prepareChecked(byte[] rawKey);

  /**
   * Prepares {@code rawKey} (the 32-byte encoding) for verification.
   *
   * @throws IllegalArgumentException if the key breaks a shared rule (see the class documentation)
   */
  final PreparedKey prepare(byte[] rawKey) {
    requireValidKey(rawKey);
    PreparedKey prepared = prepareChecked(rawKey.clone());
    return (message, signature) -> canonicalSignature(signature) && prepared.verify(message, signature);
  }

  /** The 32-byte RFC 8032 encoding of an Ed25519 public key object. */
  static byte[] rawKey(PublicKey key) {
    if (!(key instanceof EdECPublicKey edec)) {
      throw new IllegalArgumentException("public key must be an Ed25519 key");
    }
    BigInteger y = edec.getPoint().getY();
    if (y.signum() < 0 || y.bitLength() > 255) {
      throw new IllegalArgumentException("Ed25519 public key is not canonical");
    }
    byte[] raw = new byte[KEY_LENGTH];
    byte[] big = y.toByteArray();
    for (int i = 0; i < big.length && i < KEY_LENGTH; i++) {
      raw[i] = big[big.length - 1 - i];
    }
    if (edec.getPoint().isXOdd()) {
      raw[KEY_LENGTH - 1] |= (byte) 0x80;
    }
    return raw;
  }

  /**
   * @throws IllegalArgumentException unless {@code rawKey} is a canonical encoding of a point of the curve that is not
   *     of small order
   */
  static void requireValidKey(byte[] rawKey) {
    if (rawKey == null || rawKey.length != KEY_LENGTH) {
      throw new IllegalArgumentException("Ed25519 public key must be 32 bytes");
    }
    BigInteger y = yOf(rawKey, 0);
    if (y.compareTo(P) >= 0) {
      throw new IllegalArgumentException("Ed25519 public key is not canonical");
    }
    for (BigInteger small : SMALL_ORDER_Y) {
      if (y.equals(small) || y.equals(P.subtract(small).mod(P))) {
        throw new IllegalArgumentException("Ed25519 public key has small order");
      }
    }
    // x^2 = (y^2 - 1) / (d y^2 + 1) (RFC 8032 §5.1.3)
    BigInteger y2 = y.multiply(y).mod(P);
    BigInteger u = y2.subtract(BigInteger.ONE).mod(P);
    BigInteger v = D.multiply(y2).add(BigInteger.ONE).mod(P);
    BigInteger x = u.multiply(v.modInverse(P)).modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
    BigInteger x2 = u.multiply(v.modInverse(P)).mod(P);
    if (!x.multiply(x).mod(P).equals(x2)) {
      x = x.multiply(SQRT_MINUS_ONE).mod(P);
      if (!x.multiply(x).mod(P).equals(x2)) {
        throw new IllegalArgumentException("Ed25519 public key is not a point of the curve");
      }
    }
    if (x.signum() == 0 && xOdd(rawKey)) {
      throw new IllegalArgumentException("Ed25519 public key is not canonical");
    }
  }

  /** {@code S < L} and {@code R.y < p}, for a 64-byte signature. */
  static boolean canonicalSignature(byte[] signature) {
    if (signature == null || signature.length != SIGNATURE_LENGTH) {
      return false;
    }
    return yOf(signature, 0).compareTo(P) < 0
        && littleEndian(Arrays.copyOfRange(signature, KEY_LENGTH, SIGNATURE_LENGTH)).compareTo(L) < 0;
  }

  /** The {@code y} of a 32-byte point encoding at {@code offset}: little-endian with the top (sign) bit cleared. */
  static BigInteger yOf(byte[] bytes, int offset) {
    byte[] copy = Arrays.copyOfRange(bytes, offset, offset + KEY_LENGTH);
    copy[KEY_LENGTH - 1] &= 0x7f;
    return littleEndian(copy);
  }

  /** The sign of {@code x} in a 32-byte public key encoding: the top bit of its last byte. */
  static boolean xOdd(byte[] rawKey) {
    return (rawKey[KEY_LENGTH - 1] & 0x80) != 0;
  }

  private static BigInteger littleEndian(byte[] bytes) {
    byte[] big = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      big[i] = bytes[bytes.length - 1 - i];
    }
    return new BigInteger(1, big);
  }

  private static byte[] hex(String text) {
    byte[] bytes = new byte[text.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
    }
    return bytes;
  }

  /**
   * BouncyCastle's when {@code org.bouncycastle:bcprov-jdk18on} is on the class path (through its lightweight API; no
   * JCA provider is registered), else the JDK's.
   */
  static Ed25519Engine preferred() {
    return Preferred.ENGINE;
  }

  /** The JDK's EdDSA ({@code Signature.getInstance("Ed25519")}). */
  static Ed25519Engine jdk() {
    return JdkEd25519Engine.INSTANCE;
  }

  /** Resolved once, on first use. */
  private static final class Preferred {

    static final Ed25519Engine ENGINE = choose();

    private static Ed25519Engine choose() {
      try {
        Class.forName("org.bouncycastle.crypto.params.Ed25519PublicKeyParameters", false,
            Ed25519Engine.class.getClassLoader());
        return BouncyCastleEd25519Engine.INSTANCE;
      } catch (ClassNotFoundException | LinkageError absent) {
        return JdkEd25519Engine.INSTANCE;
      }
    }
  }
}
