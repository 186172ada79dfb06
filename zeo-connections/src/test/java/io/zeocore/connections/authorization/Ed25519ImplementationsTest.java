package io.zeocore.connections.authorization;

import static io.zeocore.connections.contract.ContractFixtures.authorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.EffectAuthorization;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same vectors and the same malformed inputs on every Ed25519 implementation behind
 * {@link Ed25519SignatureVerifier}: RFC 8032 §7.1, non-canonical {@code S} and {@code R}, keys that are not canonical,
 * not on the curve or of small order.
 */
class Ed25519ImplementationsTest {

  private static final HexFormat HEX = HexFormat.of();

  /** RFC 8032 §7.1: secret key, public key, message, signature. */
  private static final List<String[]> RFC_8032 = List.of(
      new String[] {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
          "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
          "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
      new String[] {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
          "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
          "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
      new String[] {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
          "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
          "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
      new String[] {"833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
          "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
          "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
          "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"});

  static Stream<Arguments> engines() {
    return Stream.of(Arguments.of(Ed25519Engine.jdk()), Arguments.of(BouncyCastleEd25519Engine.INSTANCE));
  }

  @Test
  void bouncyCastleIsPreferredWhenPresent() {
    assertThat(Ed25519Engine.preferred().name()).isEqualTo("bouncycastle");
    KeyPair keys = Ed25519Keys.generate();
    assertThat(Ed25519SignatureVerifier.of("zeo-go", keys.getPublic()).implementation()).isEqualTo("bouncycastle");
    assertThat(Ed25519SignatureVerifier.usingJdk(Map.of("zeo-go", List.of(keys.getPublic()))).implementation())
        .isEqualTo("jdk");
  }

  @ParameterizedTest
  @MethodSource("engines")
  void verifiesEveryRfc8032Vector(Ed25519Engine engine) throws Exception {
    for (String[] vector : RFC_8032) {
      byte[] message = HEX.parseHex(vector[2]);
      byte[] signature = HEX.parseHex(vector[3]);
      Ed25519Engine.PreparedKey key = engine.prepare(HEX.parseHex(vector[1]));

      assertThat(key.verify(message, signature)).as(vector[1]).isTrue();
      // the vectors are what the JDK signs with the secret key (Ed25519 is deterministic)
      Signature signer = Signature.getInstance("Ed25519");
      signer.initSign(KeyFactory.getInstance("Ed25519").generatePrivate(
          new EdECPrivateKeySpec(NamedParameterSpec.ED25519, HEX.parseHex(vector[0]))));
      signer.update(message);
      assertThat(signer.sign()).isEqualTo(signature);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void refusesEveryAlteredVector(Ed25519Engine engine) {
    for (String[] vector : RFC_8032) {
      byte[] message = HEX.parseHex(vector[2]);
      byte[] signature = HEX.parseHex(vector[3]);
      Ed25519Engine.PreparedKey key = engine.prepare(HEX.parseHex(vector[1]));
      for (int bit = 0; bit < 512; bit += 7) {
        byte[] altered = signature.clone();
        altered[bit / 8] ^= (byte) (1 << (bit % 8));
        assertThat(key.verify(message, altered)).as("bit %d", bit).isFalse();
      }
      byte[] longer = new byte[message.length + 1];
      System.arraycopy(message, 0, longer, 0, message.length);
      assertThat(key.verify(longer, signature)).isFalse();
      assertThat(key.verify(message, new byte[64])).isFalse();
      assertThat(key.verify(message, new byte[63])).isFalse();
      assertThat(key.verify(message, new byte[0])).isFalse();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void refusesANonCanonicalSThatWouldOtherwiseVerify(Ed25519Engine engine) {
    String[] vector = RFC_8032.get(0);
    byte[] signature = HEX.parseHex(vector[3]);
    BigInteger s = littleEndian(signature, 32);
    byte[] malleated = signature.clone();
    System.arraycopy(toLittleEndian(s.add(Ed25519Engine.L)), 0, malleated, 32, 32);

    assertThat(engine.prepare(HEX.parseHex(vector[1])).verify(HEX.parseHex(vector[2]), malleated)).isFalse();
    assertThat(Ed25519Engine.canonicalSignature(malleated)).isFalse();
    assertThat(Ed25519Engine.canonicalSignature(signature)).isTrue();
  }

  @ParameterizedTest
  @MethodSource("engines")
  void refusesASignatureWhoseRIsNotCanonical(Ed25519Engine engine) {
    String[] vector = RFC_8032.get(1);
    byte[] signature = HEX.parseHex(vector[3]);
    byte[] nonCanonicalR = signature.clone();
    System.arraycopy(toLittleEndian(Ed25519Engine.P.add(BigInteger.ONE)), 0, nonCanonicalR, 0, 32); // y = 1 + p

    assertThat(engine.prepare(HEX.parseHex(vector[1])).verify(HEX.parseHex(vector[2]), nonCanonicalR)).isFalse();
  }

  static Stream<Arguments> malformedKeys() {
    BigInteger p = Ed25519Engine.P;
    return Stream.of(
        Arguments.of("31 bytes", new byte[31]),
        Arguments.of("33 bytes", new byte[33]),
        Arguments.of("y = p (non-canonical zero)", toLittleEndian(p)),
        Arguments.of("y = p + 1 (non-canonical identity)", toLittleEndian(p.add(BigInteger.ONE))),
        Arguments.of("identity, y = 1", toLittleEndian(BigInteger.ONE)),
        Arguments.of("identity with the sign bit set (x = 0 with x odd)", withSign(toLittleEndian(BigInteger.ONE))),
        Arguments.of("order 2, y = p - 1", toLittleEndian(p.subtract(BigInteger.ONE))),
        Arguments.of("order 4, y = 0", new byte[32]),
        Arguments.of("order 8", HEX.parseHex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")),
        Arguments.of("order 8, other sign", HEX.parseHex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa")),
        Arguments.of("order 8, -y", HEX.parseHex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")),
        Arguments.of("not a point of the curve", toLittleEndian(firstYOffTheCurve())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedKeys")
  void refusesAMalformedKeyOnEveryImplementation(String what, byte[] rawKey) {
    for (Ed25519Engine engine : List.of(Ed25519Engine.jdk(), BouncyCastleEd25519Engine.INSTANCE)) {
      assertThatThrownBy(() -> engine.prepare(rawKey)).as(engine.name()).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void refusesASmallOrderTrustRootWhenTheVerifierIsBuilt() throws Exception {
    PublicKey identity = KeyFactory.getInstance("Ed25519").generatePublic(
        new EdECPublicKeySpec(NamedParameterSpec.ED25519, new EdECPoint(false, BigInteger.ONE)));

    assertThatThrownBy(() -> Ed25519SignatureVerifier.of("zeo-go", identity)).hasMessageContaining("small order");
    assertThatThrownBy(() -> Ed25519SignatureVerifier.usingJdk(Map.of("zeo-go", List.of(identity))))
        .hasMessageContaining("small order");
  }

  @ParameterizedTest
  @MethodSource("engines")
  void verifiesAuthorizationsExactlyAsTheOtherImplementation(Ed25519Engine engine) {
    KeyPair issuer = Ed25519Keys.generate();
    KeyPair stranger = Ed25519Keys.generate();
    Ed25519SignatureVerifier verifier = new Ed25519SignatureVerifier(Map.of("zeo-go", List.of(issuer.getPublic())),
        engine);
    EffectAuthorization signed = new AuthorizationSigner("zeo-go", issuer.getPrivate()).sign(authorization());
    byte[] raw = Base64.getUrlDecoder().decode(signed.signature());

    assertThat(verifier.verifySignature(signed)).isTrue();
    assertThat(verifier.verifySignature(new AuthorizationSigner("zeo-go", stranger.getPrivate())
        .sign(authorization()))).isFalse();
    assertThat(verifier.verifySignature(signed.withSignature("AA"))).isFalse();
    Random random = new Random(20);
    for (int i = 0; i < 64; i++) {
      byte[] altered = raw.clone();
      altered[random.nextInt(64)] ^= (byte) (1 << random.nextInt(8));
      assertThat(verifier.verifySignature(signed.withSignature(
          Base64.getUrlEncoder().withoutPadding().encodeToString(altered)))).isFalse();
    }
    byte[] malleated = raw.clone();
    System.arraycopy(toLittleEndian(littleEndian(raw, 32).add(Ed25519Engine.L)), 0, malleated, 32, 32);
    assertThat(verifier.verifySignature(signed.withSignature(
        Base64.getUrlEncoder().withoutPadding().encodeToString(malleated)))).isFalse();
  }

  private static BigInteger firstYOffTheCurve() {
    BigInteger p = Ed25519Engine.P;
    BigInteger d = BigInteger.valueOf(-121665).multiply(BigInteger.valueOf(121666).modInverse(p)).mod(p);
    for (BigInteger y = BigInteger.TWO; ; y = y.add(BigInteger.ONE)) {
      BigInteger y2 = y.multiply(y).mod(p);
      BigInteger x2 = y2.subtract(BigInteger.ONE).multiply(d.multiply(y2).add(BigInteger.ONE).modInverse(p)).mod(p);
      // Euler's criterion: x2 is not a square
      if (x2.modPow(p.subtract(BigInteger.ONE).shiftRight(1), p).equals(p.subtract(BigInteger.ONE))) {
        return y;
      }
    }
  }

  private static byte[] withSign(byte[] key) {
    key[31] |= (byte) 0x80;
    return key;
  }

  private static BigInteger littleEndian(byte[] bytes, int offset) {
    byte[] big = new byte[32];
    for (int i = 0; i < 32; i++) {
      big[i] = bytes[offset + 31 - i];
    }
    return new BigInteger(1, big);
  }

  private static byte[] toLittleEndian(BigInteger value) {
    byte[] big = value.toByteArray();
    byte[] little = new byte[32];
    for (int i = 0; i < big.length && i < 32; i++) {
      little[i] = big[big.length - 1 - i];
    }
    return little;
  }
}
