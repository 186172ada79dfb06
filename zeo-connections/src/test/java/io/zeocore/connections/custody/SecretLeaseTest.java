package io.zeocore.connections.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One-shot, expiring, bound leases and the order of the custody window's checks. */
class SecretLeaseTest {

  static final OrganizationId ORG = new OrganizationId("org-1");
  static final OrganizationId OTHER_ORG = new OrganizationId("org-2");
  static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

  final MutableClock clock = new MutableClock(T);
  final InMemorySecretStore store = new InMemorySecretStore(clock, SecretStore.DEFAULT_LEASE_TTL);
  final AtomicInteger providerCalls = new AtomicInteger();

  SecretRef put(OrganizationId organization, String material) {
    return store.put(organization, material.getBytes(StandardCharsets.UTF_8));
  }

  String redeem(SecretLease lease, OrganizationId organization) {
    return store.redeem(lease, organization, material -> {
      providerCalls.incrementAndGet();
      return new String(material.chars());
    }, result -> List.of());
  }

  CustodyException redeemFailure(SecretLease lease, OrganizationId organization) {
    try {
      redeem(lease, organization);
    } catch (CustodyException e) {
      return e;
    }
    throw new AssertionError("no CustodyException");
  }

  @Test
  void aLeaseCarriesNoMaterialAndLastsTheDefaultThreeHundredSeconds() {
    SecretRef ref = put(ORG, "lease-material");

    SecretLease lease = store.resolve(ref, ORG);

    assertThat(lease.ref()).isEqualTo(ref);
    assertThat(lease.resolvedAt()).isEqualTo(T);
    assertThat(lease.expiresAt()).isEqualTo(T.plusSeconds(300));
    assertThat(lease.leaseId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(lease.toString()).contains("<redacted>").doesNotContain(ref.handle()).doesNotContain("lease-material");
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void aLeaseIsRedeemedOnceAndItsReuseIsRefusedWithoutReadingTheSecret() {
    SecretRef ref = put(ORG, "one-shot");
    SecretLease lease = store.resolve(ref, ORG);

    assertThat(redeem(lease, ORG)).isEqualTo("one-shot");
    CustodyException reuse = redeemFailure(lease, ORG);

    assertThat(reuse.code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
    assertThat(reuse.providerCalled()).isFalse();
    assertThat(providerCalls).hasValue(1);
    assertThat(store.outstandingLeases()).isZero();
  }

  @Test
  void aLeaseIsValidUpToJustBeforeItsExpiryAndExpiredExactlyAtIt() {
    SecretRef ref = put(ORG, "boundary");
    SecretLease early = store.resolve(ref, ORG);
    SecretLease atExpiry = store.resolve(ref, ORG);

    clock.set(T.plusSeconds(300).minusNanos(1));
    assertThat(redeem(early, ORG)).isEqualTo("boundary");

    clock.set(T.plusSeconds(300));
    CustodyException expired = redeemFailure(atExpiry, ORG);
    assertThat(expired.code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_EXPIRED);
    assertThat(expired.providerCalled()).isFalse();
    assertThat(providerCalls).hasValue(1);

    // an expired lease is consumed as well: presenting it again finds nothing
    assertThat(redeemFailure(atExpiry, ORG).code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
  }

  @Test
  void aConfiguredTtlSetsTheExpiry() {
    InMemorySecretStore shortLived = new InMemorySecretStore(clock, Duration.ofMillis(1500));
    SecretRef ref = shortLived.put(ORG, "ttl".getBytes(StandardCharsets.UTF_8));

    SecretLease lease = shortLived.resolve(ref, ORG);

    assertThat(lease.expiresAt()).isEqualTo(T.plusMillis(1500));
    assertThat(shortLived.leaseTtl()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void aLeasePresentedWithAnExtendedExpiryIsRefusedAsExpiredAndConsumed() {
    SecretRef ref = put(ORG, "forged-expiry");
    SecretLease issued = store.resolve(ref, ORG);
    SecretLease extended = new SecretLease(ref, issued.leaseId(), issued.resolvedAt(), T.plusSeconds(3600));

    assertThat(redeemFailure(extended, ORG).code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_EXPIRED);
    assertThat(redeemFailure(issued, ORG).code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void aLeasePresentedForAnotherSecretOrOrganizationIsABindingMismatch() {
    SecretRef mine = put(ORG, "mine");
    SecretRef sibling = put(ORG, "sibling");
    SecretRef foreign = put(OTHER_ORG, "foreign");

    SecretLease issued = store.resolve(mine, ORG);
    SecretLease retargeted = new SecretLease(sibling, issued.leaseId(), issued.resolvedAt(), issued.expiresAt());
    assertThat(redeemFailure(retargeted, ORG).code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_BINDING_MISMATCH);

    SecretLease another = store.resolve(mine, ORG);
    SecretLease crossTenant = new SecretLease(foreign, another.leaseId(), another.resolvedAt(), another.expiresAt());
    assertThat(redeemFailure(crossTenant, OTHER_ORG).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_LEASE_BINDING_MISMATCH);
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void aLeasePresentedByAnotherOrganizationFailsTheScopeCheckFirstAndStaysRedeemable() {
    SecretRef ref = put(ORG, "scoped");
    SecretLease lease = store.resolve(ref, ORG);

    assertThat(redeemFailure(lease, OTHER_ORG).code()).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);

    assertThat(redeem(lease, ORG)).isEqualTo("scoped");
  }

  @Test
  void leasesOfAnotherStoreOrNeverIssuedAreUnknown() {
    SecretRef ref = put(ORG, "material");
    InMemorySecretStore otherStore = new InMemorySecretStore(clock, SecretStore.DEFAULT_LEASE_TTL);
    SecretLease fromOtherStore = otherStore.resolve(otherStore.put(ORG, new byte[] {1}), ORG);
    SecretLease invented = new SecretLease(ref, "not-a-lease", T, T.plusSeconds(1));

    assertThat(redeemFailure(new SecretLease(ref, fromOtherStore.leaseId(), T, T.plusSeconds(300)), ORG).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
    assertThat(redeemFailure(invented, ORG).code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
  }

  @Test
  void unredeemedLeasesAreEvictedOnceExpired() {
    SecretRef ref = put(ORG, "evict");
    store.resolve(ref, ORG);
    store.resolve(ref, ORG);
    assertThat(store.outstandingLeases()).isEqualTo(2);

    clock.advance(Duration.ofSeconds(300));
    SecretLease fresh = store.resolve(ref, ORG);

    assertThat(store.outstandingLeases()).isEqualTo(1);
    assertThat(redeem(fresh, ORG)).isEqualTo("evict");
  }

  @Test
  void emptyMaterialReadFromTheBackendIsRefusedBeforeTheProvider() {
    RecordingSecretStore recording = new RecordingSecretStore(clock);
    SecretRef ref = new SecretRef("zc0-ks:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a");
    recording.plant(ref.handle(), new byte[0]);
    SecretLease lease = recording.resolve(ref, ORG);

    CustodyException failure = (CustodyException) org.assertj.core.api.Assertions.catchThrowable(
        () -> recording.redeem(lease, ORG, material -> providerCalls.incrementAndGet(), result -> List.of()));

    assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
    assertThat(failure.providerCalled()).isFalse();
    assertThat(providerCalls).hasValue(0);
  }

  @Test
  void leaseFieldsAreValidated() {
    SecretRef ref = new SecretRef("zc0-ks:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a");
    assertThatThrownBy(() -> new SecretLease(ref, "id", T, T)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expires_at must be strictly after resolved_at");
    assertThatThrownBy(() -> new SecretLease(ref, " ", T, T.plusSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SecretLease(null, "id", T, T.plusSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ref is required");
  }
}
