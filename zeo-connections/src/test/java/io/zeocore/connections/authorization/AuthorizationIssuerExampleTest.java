package io.zeocore.connections.authorization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.AuthorizationVerdict;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The README's issuer example, verbatim, and proof that what it issues is what the verifier accepts. */
class AuthorizationIssuerExampleTest {

  private final OrganizationId organization = new OrganizationId("org-1");
  private final ConnectionId connection = new ConnectionId("conn-1");
  private final ConnectorRevisionId revision = new ConnectorRevisionId("ledger-r1");
  private final OperationId operation = new OperationId("create_refund");
  private final byte[] body = "{\"amount\":1250}".getBytes(StandardCharsets.UTF_8);
  private final String refundId = "r-17";
  private final String approvalId = "a-3";

  @Test
  void theReadmesIssuerExampleIssuesAnAuthorizationTheVerifierAccepts() {
    // On the authority, once: the key pair; the public half goes to the application's trust roots.
    KeyPair keys = Ed25519Keys.generate();
    String trustRootPem = Ed25519Keys.publicKeyPem(keys.getPublic());
    AuthorizationSigner signer = new AuthorizationSigner("payments-authority", keys.getPrivate());

    // Per effect: authorize exactly this body, once, for five minutes.
    Instant now = Instant.now();
    EffectAuthorization authorization = signer.sign(EffectAuthorization.builder()
        .authorizationId(new AuthorizationId("auth-" + UUID.randomUUID()))
        .organizationId(organization)
        .seatId("seat-7").runtimeBindingId("binding-1").packetId("packet-42").attemptId("attempt-1")
        .connectionId(connection).connectorRevision(revision).operationId(operation)
        .argumentDigest(Digests.requestDigest(body))
        .idempotencyKey(new IdempotencyKey("refund-" + refundId))
        .approvalRef("approval-" + approvalId)
        .issuedAt(now).expiresAt(now.plus(Duration.ofMinutes(5)))
        .nonce(UUID.randomUUID().toString())
        .audience("zeocore").issuer("payments-authority"));

    ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(new Ed25519SignatureVerifier(
        Map.of("payments-authority", List.of(Ed25519Keys.parsePublicKeyPem(trustRootPem)))), "zeocore",
        Set.of("payments-authority"));
    AuthorizationVerdict verdict = verifier.verify(authorization, organization, connection, revision, operation,
        Digests.requestDigest(body), now.plusSeconds(1), (org, nonce) -> false);

    assertThat(verdict.authorized()).isTrue();
  }

  @Test
  void aBuilderSignsToTheSameAuthorizationAsTheRecordWithAPlaceholderSignature() {
    AuthorizationSigner signer = new AuthorizationSigner("payments-authority", Ed25519Keys.generate().getPrivate());
    Instant now = Instant.parse("2026-12-04T10:15:30.123456Z");
    EffectAuthorization.Builder builder = EffectAuthorization.builder()
        .authorizationId(new AuthorizationId("auth-1")).organizationId(organization)
        .seatId("seat-7").runtimeBindingId("binding-1").packetId("packet-42").attemptId("attempt-1")
        .connectionId(connection).connectorRevision(revision).operationId(operation)
        .argumentDigest(Digests.requestDigest(body)).idempotencyKey(new IdempotencyKey("refund-1"))
        .approvalRef("approval-1").approvalRef("approval-2")
        .issuedAt(now).expiresAt(now.plusSeconds(300)).nonce("nonce-1")
        .audience("zeocore").issuer("payments-authority").signature("anything: replaced");

    EffectAuthorization positional = new EffectAuthorization(new AuthorizationId("auth-1"), organization, "seat-7",
        "binding-1", "packet-42", "attempt-1", connection, revision, operation, Digests.requestDigest(body),
        new IdempotencyKey("refund-1"), List.of("approval-1", "approval-2"), now, now.plusSeconds(300), "nonce-1",
        "zeocore", "payments-authority", "unsigned");

    assertThat(signer.sign(builder)).isEqualTo(signer.sign(positional)); // Ed25519 signatures are deterministic
    assertThatThrownBy(() -> signer.sign(builder.issuer("another-authority")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("authorization names another issuer than this signer's");
    assertThatThrownBy(() -> signer.sign((EffectAuthorization.Builder) null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("authorization is required");
  }
}
