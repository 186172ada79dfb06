package io.zeocore.connections.authorization;

import static org.assertj.core.api.Assertions.assertThat;

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
    EffectAuthorization authorization = signer.sign(new EffectAuthorization(
        new AuthorizationId("auth-" + UUID.randomUUID()), organization, "seat-7", "binding-1", "packet-42", "attempt-1",
        connection, revision, operation, Digests.requestDigest(body), new IdempotencyKey("refund-" + refundId),
        List.of("approval-" + approvalId), now, now.plus(Duration.ofMinutes(5)), UUID.randomUUID().toString(),
        "zeocore", "payments-authority", "unsigned"));

    ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(new Ed25519SignatureVerifier(
        Map.of("payments-authority", List.of(Ed25519Keys.parsePublicKeyPem(trustRootPem)))), "zeocore",
        Set.of("payments-authority"));
    AuthorizationVerdict verdict = verifier.verify(authorization, organization, connection, revision, operation,
        Digests.requestDigest(body), now.plusSeconds(1), (org, nonce) -> false);

    assertThat(verdict.authorized()).isTrue();
  }
}
