package io.zeocore.connections.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@link SecretStore} contract, run against both backends. */
class SecretStoreTest {

  static final OrganizationId ORG = new OrganizationId("org-1");
  static final OrganizationId OTHER_ORG = new OrganizationId("org-2");
  static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

  enum Backend {
    IN_MEMORY((dir, clock) -> new InMemorySecretStore(clock, SecretStore.DEFAULT_LEASE_TTL)),
    KEYSTORE((dir, clock) -> KeyStoreSecretStore.open(dir.resolve("custody/secrets.p12"), "pw".toCharArray(), clock,
        SecretStore.DEFAULT_LEASE_TTL));

    final BiFunction<Path, MutableClock, SecretStore> factory;

    Backend(BiFunction<Path, MutableClock, SecretStore> factory) {
      this.factory = factory;
    }
  }

  @TempDir Path dir;
  final MutableClock clock = new MutableClock(T);

  SecretStore store(Backend backend) {
    return backend.factory.apply(dir, clock);
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Reads the material through a fresh lease, inside the custody window. */
  static String readBack(SecretStore store, SecretRef ref, OrganizationId organization) {
    SecretLease lease = store.resolve(ref, organization);
    return store.redeem(lease, organization, material -> new String(material.chars()), result -> List.of());
  }

  static CustodyErrorCode codeOf(Runnable action) {
    try {
      action.run();
    } catch (CustodyException e) {
      return e.code();
    }
    throw new AssertionError("no CustodyException");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void putMintsARandomHandleScopedToTheOrganizationAndKeepsTheMaterial(Backend backend) {
    SecretStore store = store(backend);

    SecretRef first = store.put(ORG, utf8("sk_live_first"));
    SecretRef second = store.put(ORG, "sk_live_second".toCharArray());

    assertThat(first.handle()).matches("zc0-ks:org-1:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(second.handle()).isNotEqualTo(first.handle()).doesNotContain("sk_live");
    assertThat(readBack(store, first, ORG)).isEqualTo("sk_live_first");
    assertThat(readBack(store, second, ORG)).isEqualTo("sk_live_second");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void emptyMaterialIsRefusedWithItsCode(Backend backend) {
    SecretStore store = store(backend);
    SecretRef ref = store.put(ORG, utf8("secret"));

    assertThat(codeOf(() -> store.put(ORG, new byte[0]))).isEqualTo(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
    assertThat(codeOf(() -> store.put(ORG, new char[0]))).isEqualTo(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
    assertThat(codeOf(() -> store.rotate(ref, ORG, new byte[0]))).isEqualTo(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
    assertThat(readBack(store, ref, ORG)).isEqualTo("secret");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void handlesOfAnotherOrganizationAreRefusedForEveryOperation(Backend backend) {
    SecretStore store = store(backend);
    SecretRef foreign = store.put(OTHER_ORG, utf8("other-tenant-secret"));

    assertThat(codeOf(() -> store.resolve(foreign, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(codeOf(() -> store.rotate(foreign, ORG, utf8("x"))))
        .isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(codeOf(() -> store.delete(foreign, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    SecretHealth health = store.health(foreign, ORG);
    assertThat(health.reachable()).isFalse();
    assertThat(health.detail()).isEqualTo("ref does not belong to organization");

    assertThat(readBack(store, foreign, OTHER_ORG)).isEqualTo("other-tenant-secret");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aHandleRewrittenToNameTheCallerStillCannotReachAnotherOrganizationsSecret(Backend backend) {
    SecretStore store = store(backend);
    SecretRef foreign = store.put(new OrganizationId("acme"), utf8("acme-secret"));
    OrganizationId attacker = new OrganizationId("ACME");
    SecretRef rewritten = new SecretRef(foreign.handle().replace(":acme:", ":ACME:"));

    // the rewritten handle is in the attacker's scope, but names no secret of theirs (keystore aliases are
    // case-insensitive, so this also checks that aliases do not fold case)
    assertThat(codeOf(() -> store.resolve(rewritten, attacker))).isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
    assertThat(codeOf(() -> store.rotate(rewritten, attacker, utf8("overwrite"))))
        .isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
    store.delete(rewritten, attacker);
    assertThat(readBack(store, foreign, new OrganizationId("acme"))).isEqualTo("acme-secret");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "zc0-kc:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a",
      "zc0-ks:org-1",
      "zc0-ks:org-1:5B0C1B3E-8D7F-4B7E-9C1A-2F3E4D5C6B7A",
      "zc0-ks:org-1:5b0c1b3e-8d7f-1b7e-9c1a-2f3e4d5c6b7a",
      "zc0-ks:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a\n",
      "zc0-ks:org-12:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a",
      "zc0-ks::org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a",
      "ZC0-KS:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a",
      "some-other-store-handle"})
  void malformedOrForeignHandlesFailTheScopeCheckBeforeAnyBackendAccess(String handle) {
    RecordingSecretStore store = new RecordingSecretStore(clock);
    SecretRef ref = new SecretRef(handle);

    assertThat(codeOf(() -> store.resolve(ref, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(codeOf(() -> store.rotate(ref, ORG, utf8("x")))).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(codeOf(() -> store.rotate(ref, ORG, "x".toCharArray())))
        .isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(codeOf(() -> store.delete(ref, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(store.health(ref, ORG).reachable()).isFalse();
    assertThat(store.calls).isEmpty();
  }

  @Test
  void organizationIdsContainingColonsAndSpacesKeepTheirScope() {
    SecretStore store = new InMemorySecretStore(clock, SecretStore.DEFAULT_LEASE_TTL);
    OrganizationId colon = new OrganizationId("tenant:eu:42");
    OrganizationId prefix = new OrganizationId("tenant:eu");
    OrganizationId spaced = new OrganizationId(" tenant ");

    SecretRef colonRef = store.put(colon, utf8("colon-secret"));
    SecretRef spacedRef = store.put(spaced, utf8("spaced-secret"));

    assertThat(readBack(store, colonRef, colon)).isEqualTo("colon-secret");
    assertThat(readBack(store, spacedRef, spaced)).isEqualTo("spaced-secret");
    assertThat(codeOf(() -> store.resolve(colonRef, prefix))).isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    assertThat(codeOf(() -> store.resolve(spacedRef, new OrganizationId("tenant"))))
        .isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void rotateReplacesTheMaterialUnderTheSameHandleAndNeverCreatesASecret(Backend backend) {
    SecretStore store = store(backend);
    SecretRef ref = store.put(ORG, utf8("old-material"));
    SecretLease leaseBeforeRotation = store.resolve(ref, ORG);

    assertThat(store.rotate(ref, ORG, "new-material".toCharArray())).isEqualTo(ref);

    String seen = store.redeem(leaseBeforeRotation, ORG, m -> new String(m.chars()), r -> List.of());
    assertThat(seen).isEqualTo("new-material");
    assertThat(readBack(store, ref, ORG)).isEqualTo("new-material");
    SecretRef neverStored = new SecretRef("zc0-ks:org-1:" + UUID.randomUUID());
    assertThat(codeOf(() -> store.rotate(neverStored, ORG, utf8("x")))).isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
    assertThat(codeOf(() -> store.resolve(neverStored, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void deleteIsIdempotentAndOutstandingLeasesThenFindNothing(Backend backend) {
    SecretStore store = store(backend);
    SecretRef ref = store.put(ORG, utf8("to-be-deleted"));
    SecretRef kept = store.put(ORG, utf8("kept"));
    SecretLease outstanding = store.resolve(ref, ORG);

    store.delete(ref, ORG);
    store.delete(ref, ORG);

    assertThat(codeOf(() -> store.redeem(outstanding, ORG, m -> "called", r -> List.of())))
        .isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
    assertThat(codeOf(() -> store.resolve(ref, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
    assertThat(store.health(ref, ORG)).isEqualTo(new SecretHealth(false, T, "secret not found"));
    assertThat(store.health(kept, ORG)).isEqualTo(new SecretHealth(true, T, null));
    assertThat(readBack(store, kept, ORG)).isEqualTo("kept");
  }

  @Test
  void backendFailuresBecomeSanitizedCodesAndHealthReportsThemWithoutThrowing() {
    RecordingSecretStore store = new RecordingSecretStore(clock);
    SecretRef ref = store.put(ORG, utf8("material"));
    String text = "disk failed for " + ref.handle() + " material";
    store.failWith(text);

    try (StderrCapture stderr = new StderrCapture()) {
      CustodyException failure = (CustodyException) org.assertj.core.api.Assertions.catchThrowable(
          () -> store.resolve(ref, ORG));
      assertThat(failure.code()).isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
      assertThat(failure.getCause()).isNull();
      assertThat(failure.getMessage()).isEqualTo("CUSTODY_BACKEND_FAILURE: secret store backend failed");
      assertThat(codeOf(() -> store.put(ORG, utf8("y")))).isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
      assertThat(codeOf(() -> store.delete(ref, ORG))).isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
      assertThat(store.health(ref, ORG)).isEqualTo(new SecretHealth(false, T, "secret store unreachable"));

      assertThat(stderr.text()).contains("CUSTODY_BACKEND_FAILURE", "java.io.IOException")
          .doesNotContain(ref.handle()).doesNotContain("material");
    }
  }

  @Test
  void nullArgumentsAreRefusedAsInvalidArguments() {
    SecretStore store = new InMemorySecretStore(clock, SecretStore.DEFAULT_LEASE_TTL);
    SecretRef ref = store.put(ORG, utf8("material"));

    assertThatThrownBy(() -> store.put(null, utf8("x"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("organization_id is required");
    assertThatThrownBy(() -> store.put(ORG, (byte[]) null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("material is required");
    assertThatThrownBy(() -> store.resolve(null, ORG)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ref is required");
    assertThatThrownBy(() -> store.resolve(ref, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("organization_id is required");
    assertThatThrownBy(() -> new InMemorySecretStore(clock, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("lease_ttl must be positive");
    assertThatThrownBy(() -> new InMemorySecretStore(clock, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("lease_ttl must be positive");
  }
}
