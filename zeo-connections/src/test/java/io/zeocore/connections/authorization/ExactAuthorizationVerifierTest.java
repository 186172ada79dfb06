package io.zeocore.connections.authorization;

import static io.zeocore.connections.contract.AuthorizationRefusalReason.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
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
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ExactAuthorizationVerifierTest {

  private static final KeyPair ISSUER_KEYS = Ed25519Keys.generate();
  private static final KeyPair STRANGER_KEYS = Ed25519Keys.generate();
  private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
  private static final byte[] BODY = "{\"amount\":100}".getBytes(StandardCharsets.UTF_8);

  /** The checks in the order the verifier must run them, each with what makes only that check fail. */
  private static final List<AuthorizationRefusalReason> CHECK_ORDER = List.of(ABSENT, ORGANIZATION_MISMATCH,
      CONNECTION_MISMATCH, CONNECTOR_REVISION_MISMATCH, OPERATION_MISMATCH, REQUEST_DIGEST_MISMATCH,
      AUDIENCE_MISMATCH, ISSUER_UNTRUSTED, EXPIRED, NOT_YET_VALID, SIGNATURE_UNVERIFIABLE, REPLAYED);

  private static final Map<AuthorizationRefusalReason, Consumer<Scenario>> BREAKERS = breakers();

  private static Map<AuthorizationRefusalReason, Consumer<Scenario>> breakers() {
    Map<AuthorizationRefusalReason, Consumer<Scenario>> b = new EnumMap<>(AuthorizationRefusalReason.class);
    b.put(ABSENT, s -> s.absent = true);
    b.put(ORGANIZATION_MISMATCH, s -> s.authOrganization = new OrganizationId("org-2"));
    b.put(CONNECTION_MISMATCH, s -> s.authConnection = new ConnectionId("conn-2"));
    b.put(CONNECTOR_REVISION_MISMATCH, s -> s.authRevision = new ConnectorRevisionId("rev-2"));
    b.put(OPERATION_MISMATCH, s -> s.authOperation = new OperationId("delete_all"));
    b.put(REQUEST_DIGEST_MISMATCH, s -> s.argumentDigest = Digests.requestDigest("{\"amount\":1}".getBytes()));
    b.put(AUDIENCE_MISMATCH, s -> s.audience = "someone-else");
    b.put(ISSUER_UNTRUSTED, s -> s.issuer = "rogue");
    b.put(EXPIRED, s -> s.now = s.expiresAt);
    b.put(NOT_YET_VALID, s -> s.issuedAt = T.plusSeconds(10 + 60).plusNanos(1000));
    b.put(SIGNATURE_UNVERIFIABLE, s -> s.signingKeys = STRANGER_KEYS);
    b.put(REPLAYED, s -> s.consumed.add("org-1|nonce-1"));
    return b;
  }

  /** One verification: the authorization's fields, the trusted intent and the collaborators. */
  static final class Scenario {
    boolean absent;
    OrganizationId authOrganization = new OrganizationId("org-1");
    ConnectionId authConnection = new ConnectionId("conn-1");
    ConnectorRevisionId authRevision = new ConnectorRevisionId("rev-1");
    OperationId authOperation = new OperationId("create_refund");
    String argumentDigest = Digests.requestDigest(BODY);
    String audience = "zeocore";
    String issuer = "zeo-go";
    Instant issuedAt = T;
    Instant expiresAt = T.plusSeconds(300);
    KeyPair signingKeys = ISSUER_KEYS;
    Instant now = T.plusSeconds(10);
    final Set<String> consumed = new HashSet<>();
    final AtomicInteger signatureCalls = new AtomicInteger();
    final AtomicInteger nonceCalls = new AtomicInteger();
    OrganizationId nonceLookupOrganization;

    EffectAuthorization authorization() {
      if (absent) {
        return null;
      }
      EffectAuthorization unsigned = new EffectAuthorization(new AuthorizationId("auth-1"), authOrganization,
          "seat-1", "binding-1", "packet-1", "attempt-1", authConnection, authRevision, authOperation, argumentDigest,
          new IdempotencyKey("idem-1"), List.of(), issuedAt, expiresAt, "nonce-1", audience, issuer, "unsigned");
      return new AuthorizationSigner(issuer, signingKeys.getPrivate()).sign(unsigned);
    }

    AuthorizationVerdict verify() {
      Ed25519SignatureVerifier ed25519 = new Ed25519SignatureVerifier(Map.of(
          "zeo-go", List.of(ISSUER_KEYS.getPublic()), "rogue", List.of(STRANGER_KEYS.getPublic())));
      SignatureVerifier counting = authorization -> {
        signatureCalls.incrementAndGet();
        return ed25519.verifySignature(authorization);
      };
      AuthorizationNonceLookup nonces = (organization, nonce) -> {
        nonceCalls.incrementAndGet();
        nonceLookupOrganization = organization;
        return consumed.contains(organization.value() + "|" + nonce);
      };
      ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(counting, "zeocore", Set.of("zeo-go"));
      return verifier.verify(authorization(), new OrganizationId("org-1"), new ConnectionId("conn-1"),
          new ConnectorRevisionId("rev-1"), new OperationId("create_refund"), Digests.requestDigest(BODY), now, nonces);
    }
  }

  @Test
  void authorizesAMatchingSignedFreshAuthorizationAndRestatesTheCheckedFields() {
    Scenario s = new Scenario();
    s.now = Instant.parse("2026-03-01T10:00:10.123456789Z");

    AuthorizationVerdict verdict = s.verify();

    assertThat(verdict.authorized()).isTrue();
    assertThat(verdict.refusalReason()).isNull();
    assertThat(verdict.organizationId()).isEqualTo(new OrganizationId("org-1"));
    assertThat(verdict.connectionId()).isEqualTo(new ConnectionId("conn-1"));
    assertThat(verdict.connectorRevision()).isEqualTo(new ConnectorRevisionId("rev-1"));
    assertThat(verdict.operationId()).isEqualTo(new OperationId("create_refund"));
    assertThat(verdict.authorizationId()).isEqualTo(new AuthorizationId("auth-1"));
    assertThat(verdict.requestDigest()).isEqualTo(Digests.requestDigest(BODY));
    assertThat(verdict.checkedAt()).isEqualTo(Instant.parse("2026-03-01T10:00:10.123456Z"));
    assertThat(s.signatureCalls).hasValue(1);
    assertThat(s.nonceCalls).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(AuthorizationRefusalReason.class)
  void refusesWithEachReasonAloneAndCallsTheSignatureVerifierOnlyAfterEveryMechanicalCheck(
      AuthorizationRefusalReason reason) {
    Scenario s = new Scenario();
    BREAKERS.get(reason).accept(s);

    AuthorizationVerdict verdict = s.verify();

    assertThat(verdict.authorized()).isFalse();
    assertThat(verdict.refusalReason()).isEqualTo(reason);
    assertThat(verdict.checkedAt()).isEqualTo(s.now);
    boolean signatureReached = reason == SIGNATURE_UNVERIFIABLE || reason == REPLAYED;
    assertThat(s.signatureCalls).hasValue(signatureReached ? 1 : 0);
    assertThat(s.nonceCalls).hasValue(reason == REPLAYED ? 1 : 0);
  }

  @ParameterizedTest
  @EnumSource(AuthorizationRefusalReason.class)
  void reportsOnlyTheFirstFailingCheckWhenThisAndEveryLaterCheckFail(AuthorizationRefusalReason reason) {
    Scenario s = new Scenario();
    for (AuthorizationRefusalReason later : CHECK_ORDER.subList(CHECK_ORDER.indexOf(reason), CHECK_ORDER.size())) {
      BREAKERS.get(later).accept(s);
    }

    AuthorizationVerdict verdict = s.verify();

    assertThat(verdict.refusalReason()).isEqualTo(reason);
    assertThat(s.signatureCalls).hasValueLessThanOrEqualTo(1);
  }

  @Test
  void coversEveryRefusalReasonInTheCheckOrder() {
    assertThat(CHECK_ORDER).containsExactlyInAnyOrder(AuthorizationRefusalReason.values());
  }

  @Test
  void countsTheExpiryInstantItselfAsExpired() {
    Scenario atExpiry = new Scenario();
    atExpiry.now = atExpiry.expiresAt;
    Scenario justBefore = new Scenario();
    justBefore.now = justBefore.expiresAt.minusNanos(1000);

    assertThat(atExpiry.verify().refusalReason()).isEqualTo(EXPIRED);
    assertThat(justBefore.verify().authorized()).isTrue();
  }

  @Test
  void allowsIssuedAtUpToTheSkewInTheFuture() {
    Scenario atSkew = new Scenario();
    atSkew.issuedAt = atSkew.now.plus(ExactAuthorizationVerifier.DEFAULT_ISSUED_AT_SKEW);
    Scenario beyond = new Scenario();
    beyond.issuedAt = beyond.now.plus(ExactAuthorizationVerifier.DEFAULT_ISSUED_AT_SKEW).plusNanos(1000);

    assertThat(atSkew.verify().authorized()).isTrue();
    assertThat(beyond.verify().refusalReason()).isEqualTo(NOT_YET_VALID);
  }

  @Test
  void honoursAConfiguredSkew() {
    Scenario s = new Scenario();
    s.issuedAt = T.plusSeconds(15);
    EffectAuthorization early = s.authorization();
    ExactAuthorizationVerifier strict = new ExactAuthorizationVerifier(Ed25519SignatureVerifier.of("zeo-go",
        ISSUER_KEYS.getPublic()), "zeocore", Set.of("zeo-go"), Duration.ZERO);

    AuthorizationVerdict verdict = strict.verify(early, new OrganizationId("org-1"), new ConnectionId("conn-1"),
        new ConnectorRevisionId("rev-1"), new OperationId("create_refund"), Digests.requestDigest(BODY), s.now,
        (organization, nonce) -> false);

    assertThat(verdict.refusalReason()).isEqualTo(NOT_YET_VALID);
  }

  @Test
  void scopesTheNonceLookupByTheTrustedOrganization() {
    Scenario consumedElsewhere = new Scenario();
    consumedElsewhere.consumed.add("org-2|nonce-1");

    AuthorizationVerdict verdict = consumedElsewhere.verify();

    assertThat(verdict.authorized()).isTrue();
    assertThat(consumedElsewhere.nonceLookupOrganization).isEqualTo(new OrganizationId("org-1"));
  }

  @Test
  void treatsASignatureVerifierExceptionAsUnverifiable() {
    ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(a -> {
      throw new IllegalStateException("key store locked");
    }, "zeocore", Set.of("zeo-go"));

    AuthorizationVerdict verdict = verifier.verify(new Scenario().authorization(), new OrganizationId("org-1"),
        new ConnectionId("conn-1"), new ConnectorRevisionId("rev-1"), new OperationId("create_refund"),
        Digests.requestDigest(BODY), T.plusSeconds(10), (organization, nonce) -> false);

    assertThat(verdict.refusalReason()).isEqualTo(SIGNATURE_UNVERIFIABLE);
  }

  @Test
  void requiresEveryConfigurationValueWithoutDefaults() {
    SignatureVerifier any = a -> true;
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(null, "zeocore", Set.of("zeo-go")))
        .hasMessageContaining("signature_verifier");
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(any, null, Set.of("zeo-go")))
        .hasMessageContaining("expected_audience");
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(any, " ", Set.of("zeo-go")))
        .hasMessageContaining("expected_audience");
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(any, "zeocore", Set.of()))
        .hasMessageContaining("trusted_issuers");
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(any, "zeocore", null))
        .hasMessageContaining("trusted_issuers");
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(any, "zeocore", Set.of("")))
        .hasMessageContaining("trusted_issuers");
    assertThatThrownBy(() -> new ExactAuthorizationVerifier(any, "zeocore", Set.of("zeo-go"), Duration.ofSeconds(-1)))
        .hasMessageContaining("skew");
  }

  @Test
  void rejectsMissingTrustedContextAsAProgrammingErrorNotARefusal() {
    ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(a -> true, "zeocore", Set.of("zeo-go"));
    EffectAuthorization authorization = new Scenario().authorization();

    assertThatThrownBy(() -> verifier.verify(authorization, new OrganizationId("org-1"), new ConnectionId("conn-1"),
        new ConnectorRevisionId("rev-1"), new OperationId("create_refund"), Digests.requestDigest(BODY), null,
        (o, n) -> false)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("now must be");
    assertThatThrownBy(() -> verifier.verify(authorization, null, new ConnectionId("conn-1"),
        new ConnectorRevisionId("rev-1"), new OperationId("create_refund"), Digests.requestDigest(BODY), T,
        (o, n) -> false)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("organization_id");
  }
}
