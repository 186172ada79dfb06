package io.zeocore.connections.authorization;

import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 verification with BouncyCastle's lightweight API ({@link Ed25519PublicKeyParameters#verify}, what
 * {@code org.bouncycastle.crypto.signers.Ed25519Signer} calls, without its message buffer). The public key is decoded
 * once, when the trust roots are built. No JCA provider is registered and no global state is touched. Only loaded when
 * {@code bcprov-jdk18on} is on the class path ({@link Ed25519Engine#preferred()}).
 */
final class BouncyCastleEd25519Engine extends Ed25519Engine {

  static final BouncyCastleEd25519Engine INSTANCE = new BouncyCastleEd25519Engine();

  private BouncyCastleEd25519Engine() {}

  @Override
  String name() {
    return "bouncycastle";
  }

  @Override
  PreparedKey prepareChecked(byte[] rawKey) {
    Ed25519PublicKeyParameters key;
    try {
      key = new Ed25519PublicKeyParameters(rawKey, 0);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Ed25519 public key is not a point of the curve");
    }
    return (message, signature) -> {
      try {
        return key.verify(Ed25519.Algorithm.Ed25519, null, message, 0, message.length, signature, 0);
      } catch (RuntimeException e) {
        return false;
      }
    };
  }
}
