package io.zeocore.connections.custody;

import static io.zeocore.connections.custody.SecretStoreTest.ORG;
import static io.zeocore.connections.custody.SecretStoreTest.OTHER_ORG;
import static io.zeocore.connections.custody.SecretStoreTest.T;
import static io.zeocore.connections.custody.SecretStoreTest.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.custody.SecretStoreTest.Backend;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SecretStore#redeem}, the public one-shot custody window for dispatchers ZeoCore did not write, on both
 * backends: the PKCS#12 keystore on disk and the in-memory store. Every test starts by storing {@link #SECRET} for
 * {@code ORG} ({@link #storeTheSecret}).
 */
class SecretLeaseRedemptionTest {

  static final String SECRET = "sk_live_REDEEM_CANARY_51f0c2";
  static final String PROVIDER_TEXT = "PROVIDER-ECHO-CANARY-9d21";

  @TempDir Path dir;
  final MutableClock clock = new MutableClock(T);
  SecretStore store;
  SecretRef ref;

  SecretStore store(Backend backend) {
    return backend.factory.apply(dir, clock);
  }

  /** Opens {@link #store} on {@code backend} and stores {@link #SECRET} for {@code ORG} under {@link #ref}. */
  void storeTheSecret(Backend backend) {
    store = store(backend);
    ref = store.put(ORG, utf8(SECRET));
  }

  /** A fresh lease on the stored secret. */
  SecretLease lease() {
    return store.resolve(ref, ORG);
  }

  static CustodyException custodyFailure(Runnable action) {
    try {
      action.run();
    } catch (CustodyException e) {
      return e;
    }
    throw new AssertionError("no CustodyException");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void secondRedemptionOfALeaseIsUnknown(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();
    AtomicInteger calls = new AtomicInteger();

    String seen = store.redeem(lease, ORG, material -> {
      calls.incrementAndGet();
      return new String(material.chars()).equals(SECRET) ? "material was the secret" : "other material";
    });

    assertThat(seen).isEqualTo("material was the secret");
    CustodyException second = custodyFailure(() -> store.redeem(lease, ORG, material -> calls.incrementAndGet()));
    assertThat(second.code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
    assertThat(second.providerCalled()).isFalse();
    assertThat(calls).hasValue(1);
    assertThat(store.outstandingLeases()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLeaseIsSpentEvenWhenTheCallbackThrows(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();

    CustodyException failed = custodyFailure(() -> store.redeem(lease, ORG, material -> {
      throw new IllegalStateException(PROVIDER_TEXT + " " + new String(material.chars()));
    }));

    assertThat(failed.code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
    assertThat(custodyFailure(() -> store.redeem(lease, ORG, material -> "again")).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void providerExceptionsBecomeProviderFailedWithoutCauseSuppressedOrText(Backend backend) {
    storeTheSecret(backend);
    List<Supplier<Throwable>> failures = List.of(
        () -> new IOException(PROVIDER_TEXT + " " + SECRET),
        () -> new IllegalArgumentException(PROVIDER_TEXT, new RuntimeException(SECRET)),
        () -> {
          RuntimeException withSuppressed = new RuntimeException(PROVIDER_TEXT);
          withSuppressed.addSuppressed(new IllegalStateException(SECRET));
          return withSuppressed;
        },
        () -> new AssertionError(PROVIDER_TEXT + SECRET),
        () -> new CustodyException(CustodyErrorCode.CUSTODY_NOT_FOUND));

    try (StderrCapture stderr = new StderrCapture()) {
      for (Supplier<Throwable> failure : failures) {
        SecretLease lease = lease();
        CustodyException thrown = custodyFailure(() -> store.redeem(lease, ORG, material -> {
          Throwable t = failure.get();
          if (t instanceof Exception e) {
            throw e;
          }
          throw (Error) t;
        }));

        assertThat(thrown.code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
        assertThat(thrown.providerCalled()).isTrue();
        assertThat(thrown.getCause()).isNull();
        assertThat(thrown.getSuppressed()).isEmpty();
        assertThat(thrown.getMessage()).isEqualTo("CUSTODY_PROVIDER_FAILED: provider call failed inside custody")
            .doesNotContain(PROVIDER_TEXT).doesNotContain(SECRET).doesNotContain(ref.handle());
        thrown.addSuppressed(new IllegalStateException(SECRET));
        assertThat(thrown.getSuppressed()).isEmpty();
        assertThatThrownBy(() -> thrown.initCause(new IllegalStateException(SECRET)))
            .isInstanceOf(IllegalStateException.class);
      }
      assertThat(stderr.text()).doesNotContain(PROVIDER_TEXT).doesNotContain(SECRET).doesNotContain(ref.handle());
    }
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void materialExistsOnlyInsideTheCallbackAndIsZeroedAfter(Backend backend) {
    storeTheSecret(backend);
    for (boolean callbackThrows : new boolean[] {false, true}) {
      AtomicReference<SecretMaterial> escaped = new AtomicReference<>();
      AtomicReference<byte[]> bytes = new AtomicReference<>();
      AtomicReference<char[]> chars = new AtomicReference<>();
      SecretLease lease = lease();

      Runnable redemption = () -> store.redeem(lease, ORG, material -> {
        escaped.set(material);
        bytes.set(material.bytes());
        chars.set(material.chars());
        assertThat(new String(chars.get())).isEqualTo(SECRET);
        if (callbackThrows) {
          throw new IOException(PROVIDER_TEXT);
        }
        return material.length();
      });
      if (callbackThrows) {
        assertThat(custodyFailure(redemption).code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
      } else {
        redemption.run();
      }

      assertThat(bytes.get()).containsOnly((byte) 0);
      assertThat(new String(chars.get())).isEqualTo("\0".repeat(SECRET.length()));
      assertThatThrownBy(() -> escaped.get().bytes()).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> escaped.get().chars()).isInstanceOf(IllegalStateException.class);
      assertThat(escaped.get().toString()).doesNotContain(SECRET);
    }
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLeaseAtItsExpiryIsExpiredAndSpent(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();
    assertThat(Duration.between(lease.resolvedAt(), lease.expiresAt())).isEqualTo(SecretStore.DEFAULT_LEASE_TTL);
    AtomicInteger calls = new AtomicInteger();

    clock.set(lease.expiresAt());
    CustodyException expired = custodyFailure(() -> store.redeem(lease, ORG, material -> calls.incrementAndGet()));
    clock.set(lease.expiresAt().minusSeconds(1));
    CustodyException afterwards = custodyFailure(() -> store.redeem(lease, ORG, material -> calls.incrementAndGet()));

    assertThat(expired.code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_EXPIRED);
    assertThat(expired.providerCalled()).isFalse();
    assertThat(afterwards.code()).isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
    assertThat(calls).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLeaseJustBeforeItsExpiryIsRedeemed(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();

    clock.set(lease.expiresAt().minusNanos(1));

    assertThat(store.redeem(lease, ORG, SecretMaterial::length)).isEqualTo(SECRET.length());
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void rotationIsVisibleOnTheNextLease(Backend backend) {
    storeTheSecret(backend);
    SecretLease before = lease();
    assertThat(store.<Boolean>redeem(before, ORG, material -> new String(material.chars()).equals(SECRET))).isTrue();

    SecretLease issuedBeforeRotation = lease();
    assertThat(store.rotate(ref, ORG, utf8("sk_live_ROTATED_2"))).isEqualTo(ref);
    SecretLease next = lease();

    assertThat(store.<Boolean>redeem(next, ORG, material -> new String(material.chars()).equals("sk_live_ROTATED_2")))
        .isTrue();
    // the material is read at redemption, so a lease issued before the rotation reads the rotated secret too
    assertThat(store.<Boolean>redeem(issuedBeforeRotation, ORG,
        material -> new String(material.chars()).equals("sk_live_ROTATED_2"))).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void redemptionIsScopedToTheLeasesOrganizationAndChecksItFirst(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();

    assertThat(custodyFailure(() -> store.redeem(lease, OTHER_ORG, SecretMaterial::length)).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    // a foreign caller cannot burn the lease: the scope is checked before the lease is consumed
    assertThat(store.redeem(lease, ORG, SecretMaterial::length)).isEqualTo(SECRET.length());

    SecretStore other = store(backend == Backend.IN_MEMORY ? Backend.KEYSTORE : Backend.IN_MEMORY);
    assertThat(custodyFailure(() -> other.redeem(lease(), ORG, SecretMaterial::length)).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aLeaseOfADeletedSecretFindsNothing(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();
    store.delete(ref, ORG);

    assertThat(custodyFailure(() -> store.redeem(lease, ORG, SecretMaterial::length)).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_NOT_FOUND);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aTextResultRepeatingTheMaterialIsRefusedAndOtherResultsPassThrough(Backend backend) {
    storeTheSecret(backend);

    assertThat(custodyFailure(() -> store.redeem(lease(), ORG,
        material -> "Bearer " + new String(material.chars()))).code())
        .isEqualTo(CustodyErrorCode.CUSTODY_INVALID_RESULT);
    assertThat(store.<Object>redeem(lease(), ORG, material -> (Object) null)).isNull();
    assertThat(store.<String>redeem(lease(), ORG, material -> "200 OK")).isEqualTo("200 OK");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void anInterruptedCallbackIsProviderFailedAndKeepsTheInterrupt(Backend backend) {
    storeTheSecret(backend);
    try {
      CustodyException failed = custodyFailure(() -> store.redeem(lease(), ORG, material -> {
        throw new InterruptedException(PROVIDER_TEXT);
      }));

      assertThat(failed.code()).isEqualTo(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void refusesMissingArguments(Backend backend) {
    storeTheSecret(backend);
    SecretLease lease = lease();

    assertThatThrownBy(() -> store.redeem(null, ORG, SecretMaterial::length))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.redeem(lease, null, SecretMaterial::length))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.redeem(lease, ORG, null)).isInstanceOf(IllegalArgumentException.class);
    assertThat(store.redeem(lease, ORG, SecretMaterial::length)).isEqualTo(SECRET.length());
  }
}
