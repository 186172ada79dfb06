package io.zeocore.connections.authorization;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;

/** Ed25519 verification with the JDK's EdDSA ({@code Signature.getInstance("Ed25519")}): no extra dependency. */
final class JdkEd25519Engine extends Ed25519Engine {

  static final JdkEd25519Engine INSTANCE = new JdkEd25519Engine();

  private JdkEd25519Engine() {}

  @Override
  String name() {
    return "jdk";
  }

  @Override
  PreparedKey prepareChecked(byte[] rawKey) {
    PublicKey key;
    try {
      key = KeyFactory.getInstance("Ed25519").generatePublic(
          new EdECPublicKeySpec(NamedParameterSpec.ED25519, new EdECPoint(xOdd(rawKey), yOf(rawKey, 0))));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("Ed25519 public key is not a point of the curve");
    }
    return (message, signature) -> {
      try {
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(key);
        verifier.update(message);
        return verifier.verify(signature);
      } catch (GeneralSecurityException | RuntimeException e) {
        return false;
      }
    };
  }
}
