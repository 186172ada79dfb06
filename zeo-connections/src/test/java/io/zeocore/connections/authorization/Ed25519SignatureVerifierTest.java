package io.zeocore.connections.authorization;

import static io.zeocore.connections.contract.ContractFixtures.authorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.IdempotencyKey;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Ed25519SignatureVerifierTest {

  private static final KeyPair ZEO_GO = Ed25519Keys.generate();
  private static final KeyPair OTHER_ISSUER = Ed25519Keys.generate();
  private static final AuthorizationSigner SIGNER = new AuthorizationSigner("zeo-go", ZEO_GO.getPrivate());
  private static final Ed25519SignatureVerifier VERIFIER = new Ed25519SignatureVerifier(Map.of(
      "zeo-go", List.of(ZEO_GO.getPublic()), "partner", List.of(OTHER_ISSUER.getPublic())));

  @Test
  void verifiesASignatureMadeWithARealKeyPair() {
    EffectAuthorization signed = SIGNER.sign(authorization());

    assertThat(signed.signature()).matches("[A-Za-z0-9_-]{86}");
    assertThat(VERIFIER.verifySignature(signed)).isTrue();
    assertThat(signed.withSignature("unsigned")).isNotEqualTo(signed);
  }

  @Test
  void refusesPaddedSignature() {
    EffectAuthorization signed = SIGNER.sign(authorization());
    ExactAuthorizationVerifier exact = new ExactAuthorizationVerifier(VERIFIER, "zeocore", Set.of("zeo-go"));

    for (String padded : List.of(signed.signature() + "==", signed.signature() + "=",
        Base64.getUrlEncoder().encodeToString(Base64.getUrlDecoder().decode(signed.signature())))) {
      EffectAuthorization paddedForm = signed.withSignature(padded);
      assertThat(VERIFIER.verifySignature(paddedForm)).as(padded).isFalse();
      assertThat(exact.verify(paddedForm, paddedForm.organizationId(), paddedForm.connectionId(),
          paddedForm.connectorRevision(), paddedForm.operationId(), paddedForm.argumentDigest(),
          paddedForm.issuedAt(), (organization, nonce) -> false).refusalReason())
          .as(padded).isEqualTo(AuthorizationRefusalReason.SIGNATURE_UNVERIFIABLE);
    }
    assertThat(exact.verify(signed, signed.organizationId(), signed.connectionId(), signed.connectorRevision(),
        signed.operationId(), signed.argumentDigest(), signed.issuedAt(), (organization, nonce) -> false)
        .authorized()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {" ", "\n", "\t"})
  void refusesASignatureWithSurroundingOrEmbeddedWhitespace(String whitespace) {
    EffectAuthorization signed = SIGNER.sign(authorization());
    String sig = signed.signature();

    assertThat(VERIFIER.verifySignature(signed.withSignature(sig + whitespace))).isFalse();
    assertThat(VERIFIER.verifySignature(signed.withSignature(whitespace + sig))).isFalse();
    assertThat(VERIFIER.verifySignature(signed.withSignature(sig.substring(0, 40) + whitespace + sig.substring(40))))
        .isFalse();
  }

  @Test
  void refusesEveryTamperedField() {
    EffectAuthorization s = SIGNER.sign(authorization());
    List<UnaryOperator<EffectAuthorization>> tamperings = List.of(
        a -> copy(a, a.argumentDigest().replace('a', 'b'), a.nonce(), a.idempotencyKey(), a.approvalRefs(), a),
        a -> copy(a, a.argumentDigest(), "nonce-2", a.idempotencyKey(), a.approvalRefs(), a),
        a -> copy(a, a.argumentDigest(), a.nonce(), new IdempotencyKey("idem-2"), a.approvalRefs(), a),
        a -> copy(a, a.argumentDigest(), a.nonce(), a.idempotencyKey(), List.of(), a),
        a -> new EffectAuthorization(a.authorizationId(), a.organizationId(), a.seatId(), a.runtimeBindingId(),
            a.packetId(), a.attemptId(), a.connectionId(), a.connectorRevision(), a.operationId(), a.argumentDigest(),
            a.idempotencyKey(), a.approvalRefs(), a.issuedAt(), a.expiresAt().plusSeconds(3600), a.nonce(),
            a.audience(), a.issuer(), a.signature()));

    for (UnaryOperator<EffectAuthorization> tamper : tamperings) {
      EffectAuthorization tampered = tamper.apply(s);
      assertThat(tampered.signature()).isEqualTo(s.signature());
      assertThat(VERIFIER.verifySignature(tampered)).isFalse();
    }
  }

  @Test
  void refusesASignatureByAnUntrustedKey() {
    KeyPair stranger = Ed25519Keys.generate();
    EffectAuthorization signed = new AuthorizationSigner("zeo-go", stranger.getPrivate()).sign(authorization());

    assertThat(VERIFIER.verifySignature(signed)).isFalse();
  }

  @Test
  void refusesASignatureByAnotherTrustedIssuersKey() {
    // partner's key signs an authorization that claims zeo-go as its issuer
    EffectAuthorization forged = new AuthorizationSigner("zeo-go", OTHER_ISSUER.getPrivate()).sign(authorization());

    assertThat(VERIFIER.verifySignature(forged)).isFalse();
  }

  @Test
  void refusesAnIssuerWithoutTrustRoots() {
    EffectAuthorization a = authorization();
    EffectAuthorization unknownIssuer = new EffectAuthorization(a.authorizationId(), a.organizationId(), a.seatId(),
        a.runtimeBindingId(), a.packetId(), a.attemptId(), a.connectionId(), a.connectorRevision(), a.operationId(),
        a.argumentDigest(), a.idempotencyKey(), a.approvalRefs(), a.issuedAt(), a.expiresAt(), a.nonce(), a.audience(),
        "nobody", a.signature());

    assertThat(VERIFIER.verifySignature(new AuthorizationSigner("nobody", ZEO_GO.getPrivate()).sign(unknownIssuer)))
        .isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"!!!", "not base64 at all", "c2lnbmF0dXJl", "AA", "A", "====", "AAAA AAAA", "+/+/"})
  void refusesMalformedSignaturesWithoutThrowing(String signature) {
    assertThat(VERIFIER.verifySignature(authorization().withSignature(signature))).isFalse();
  }

  @Test
  void refusesStandardAlphabetAndNonCanonicalEncodingsOfAValidSignature() {
    EffectAuthorization signed = SIGNER.sign(authorization());
    byte[] raw = Base64.getUrlDecoder().decode(signed.signature());
    String standard = Base64.getEncoder().withoutPadding().encodeToString(raw);
    // the 86th character holds the last 2 bits of the signature and 4 zero bits; setting one of those zero bits
    // gives another string that a lenient decoder reads as the same 64 bytes
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = signed.signature().charAt(85);
    String nonCanonical = signed.signature().substring(0, 85) + alphabet.charAt(alphabet.indexOf(last) + 1);
    assertThat(Base64.getUrlDecoder().decode(nonCanonical)).isEqualTo(raw);

    if (!standard.equals(signed.signature())) {
      assertThat(VERIFIER.verifySignature(signed.withSignature(standard))).isFalse();
    }
    assertThat(VERIFIER.verifySignature(signed.withSignature(nonCanonical))).isFalse();
    byte[] flipped = raw.clone();
    flipped[10] ^= 1;
    assertThat(VERIFIER.verifySignature(signed.withSignature(
        Base64.getUrlEncoder().withoutPadding().encodeToString(flipped)))).isFalse();
    assertThat(VERIFIER.verifySignature(signed.withSignature(
        Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[64])))).isFalse();
  }

  @Test
  void acceptsAnyOfSeveralKeysOfOneIssuerForRotation() {
    KeyPair next = Ed25519Keys.generate();
    Ed25519SignatureVerifier rotating = new Ed25519SignatureVerifier(
        Map.of("zeo-go", List.of(ZEO_GO.getPublic(), next.getPublic())));

    assertThat(rotating.verifySignature(SIGNER.sign(authorization()))).isTrue();
    assertThat(rotating.verifySignature(new AuthorizationSigner("zeo-go", next.getPrivate()).sign(authorization())))
        .isTrue();
  }

  @Test
  void refusesTrustRootsAndSignersThatAreNotEd25519() throws Exception {
    PublicKey ed448 = KeyPairGenerator.getInstance("Ed448").generateKeyPair().getPublic();
    KeyPair rsa = KeyPairGenerator.getInstance("RSA").generateKeyPair();

    assertThatThrownBy(() -> Ed25519SignatureVerifier.of("zeo-go", ed448)).hasMessageContaining("Ed25519");
    assertThatThrownBy(() -> Ed25519SignatureVerifier.of("zeo-go", rsa.getPublic())).hasMessageContaining("Ed25519");
    assertThatThrownBy(() -> new Ed25519SignatureVerifier(Map.of())).hasMessageContaining("at least one issuer");
    assertThatThrownBy(() -> new Ed25519SignatureVerifier(Map.of("zeo-go", List.of())))
        .hasMessageContaining("at least one public key");
    assertThatThrownBy(() -> new AuthorizationSigner("zeo-go", rsa.getPrivate())).hasMessageContaining("Ed25519");
    assertThatThrownBy(() -> new AuthorizationSigner("partner", ZEO_GO.getPrivate()).sign(authorization()))
        .hasMessageContaining("another issuer");
  }

  @Test
  void roundTripsKeysThroughPem() {
    String publicPem = Ed25519Keys.publicKeyPem(ZEO_GO.getPublic());
    String privatePem = Ed25519Keys.privateKeyPem(ZEO_GO.getPrivate());

    assertThat(publicPem).startsWith("-----BEGIN PUBLIC KEY-----\n").endsWith("-----END PUBLIC KEY-----\n");
    PublicKey publicKey = Ed25519Keys.parsePublicKeyPem(publicPem);
    EffectAuthorization signed = new AuthorizationSigner("zeo-go", Ed25519Keys.parsePrivateKeyPem(privatePem))
        .sign(authorization());
    assertThat(Ed25519SignatureVerifier.of("zeo-go", publicKey).verifySignature(signed)).isTrue();
    assertThatThrownBy(() -> Ed25519Keys.parsePublicKeyPem(privatePem)).hasMessageContaining("PUBLIC KEY");
    assertThatThrownBy(() -> Ed25519Keys.parsePrivateKeyPem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))
        .hasMessage("not an Ed25519 private key");
    assertThat(SIGNER.toString()).doesNotContain(privatePem.substring(30, 60));
  }

  private static EffectAuthorization copy(EffectAuthorization a, String argumentDigest, String nonce,
      IdempotencyKey key, List<String> approvals, EffectAuthorization signatureSource) {
    return new EffectAuthorization(a.authorizationId(), a.organizationId(), a.seatId(), a.runtimeBindingId(),
        a.packetId(), a.attemptId(), a.connectionId(), a.connectorRevision(), a.operationId(), argumentDigest, key,
        approvals, a.issuedAt(), a.expiresAt(), nonce, a.audience(), a.issuer(), signatureSource.signature());
  }
}
