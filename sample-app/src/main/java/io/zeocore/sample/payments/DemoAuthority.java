package io.zeocore.sample.payments;

import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.IdempotencyKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Stands in for the authority ("ZEO Go") that approves effects: signs one {@link EffectAuthorization} per payment with
 * the demo issuer's Ed25519 key from the data directory. ZeoCore trusts that issuer only because
 * {@code zeocore.connections.authorization.trust-roots} names its public key.
 */
@Component
public class DemoAuthority {

  public static final String ISSUER = "zeo-demo-issuer";

  private final AuthorizationSigner signer;
  private final String audience;

  public DemoAuthority(@Value("${sample.data-dir:./data}") String dataDir,
      @Value("${zeocore.connections.authorization.audience}") String audience) {
    Path privateKey = Path.of(dataDir).toAbsolutePath().resolve("demo-issuer/private.pem");
    try {
      this.signer = new AuthorizationSigner(ISSUER, Ed25519Keys.parsePrivateKeyPem(Files.readString(privateKey)));
    } catch (IOException failure) {
      throw new UncheckedIOException("cannot read the demo issuer key " + privateKey, failure);
    }
    this.audience = audience;
  }

  /** A fresh, signed, five-minute authorization to post {@code body} once under {@code idempotencyKey}. */
  public EffectAuthorization authorize(byte[] body, IdempotencyKey idempotencyKey) {
    Instant now = Instant.now();
    return signer.sign(EffectAuthorization.builder()
        .authorizationId(new AuthorizationId("auth-" + UUID.randomUUID()))
        .organizationId(DemoLedgerConnector.ORGANIZATION)
        .seatId("demo-seat").runtimeBindingId("demo-binding").packetId("demo-packet").attemptId("demo-attempt")
        .connectionId(DemoLedgerConnector.CONNECTION).connectorRevision(DemoLedgerConnector.REVISION)
        .operationId(DemoLedgerConnector.POST_PAYMENT)
        .argumentDigest(Digests.requestDigest(body))
        .idempotencyKey(idempotencyKey)
        .approvalRef("demo-approval")
        .issuedAt(now).expiresAt(now.plus(Duration.ofMinutes(5)))
        .nonce(UUID.randomUUID().toString())
        .audience(audience).issuer(ISSUER));
  }
}
