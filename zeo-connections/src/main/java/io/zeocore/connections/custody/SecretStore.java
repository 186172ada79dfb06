package io.zeocore.connections.custody;

import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Organization-scoped custody of secret material (API keys, tokens) used by provider calls. The public operations are
 * the reference's {@link #put}, {@link #resolve}, {@link #rotate}, {@link #delete} and {@link #health}, plus
 * {@link #redeem}, the one public way to read material: a lease from {@code resolve} is redeemed once, and the material
 * exists only inside the caller's callback. {@link CustodyEffectDispatcher}, {@link CustodyEffectReconciler} and
 * {@link CustodyReadDispatcher} are built on it; a dispatcher ZeoCore did not write uses it directly:
 *
 * <pre>{@code
 * SecretLease lease = store.resolve(connection.secretHandle(), organization);
 * HttpResponse<byte[]> response = store.redeem(lease, organization, material -> {
 *   char[] token = material.chars();            // zeroed when the callback returns or throws
 *   return http.send(requestWithBearer(token), BodyHandlers.ofByteArray());
 * });
 * }</pre>
 *
 * <h2>Why an abstract class with final operations</h2>
 * Deliberately not an interface (a deviation from the reference's protocol, recorded in DESIGN): every public operation
 * is {@code final} and implemented here once, so that no backend can skip the organization scope check, issue a lease
 * that is not one-shot, let a lease outlive its expiry, hand material out of the custody window or let a backend or
 * provider exception (and the text it carries) escape. A backend supplies only the storage hooks below, which receive
 * handles that were already scope-checked.
 *
 * <h2>Handles and scope</h2>
 * {@code put} mints a {@link SecretRef} {@code zc0-ks:<organization>:<uuid4>} (random, never derived from material).
 * Every other operation first checks that the handle was minted for the calling organization, <em>before any backend
 * access</em>; a foreign or malformed handle fails with {@link CustodyErrorCode#CUSTODY_SCOPE_MISMATCH}.
 *
 * <h2>Leases and the custody window</h2>
 * {@code resolve} checks that the secret exists (without reading it) and registers a one-shot {@link SecretLease} that
 * expires after the lease TTL (default {@value #DEFAULT_LEASE_TTL_SECONDS} s; valid while {@code now < expiresAt}).
 * Redeeming the lease, in this order: checks scope; consumes the lease (whatever happens next); checks the lease is
 * bound to the presented ref and organization and that its expiry is the registered one and not reached; reads the
 * material from the backend; hands it to the callback as {@link SecretMaterial}; zeroes it when the callback returns or
 * throws. Unconsumed leases are evicted once expired.
 *
 * <h2>Failures</h2>
 * Every failure is a {@link CustodyException} with a code, a fixed message and no cause: backend exceptions, provider
 * exceptions and their texts are discarded (custody logs only their class names). Material never appears in a
 * message, a log, a {@code toString} or a field of this object. Invalid arguments ({@code null}) are
 * {@link IllegalArgumentException}s.
 *
 * <h2>Implementing a backend</h2>
 * Subclasses implement the protected hooks, which receive handles already scope-checked; they must be thread-safe,
 * must not log or echo material or handles, and should treat the arrays they receive as owned by the caller (they are
 * zeroed after the hook returns). Any exception a hook throws becomes {@link CustodyErrorCode#CUSTODY_BACKEND_FAILURE}.
 * All operations of this class are thread-safe.
 */
public abstract class SecretStore {

  /** The default lease time-to-live in seconds. */
  public static final long DEFAULT_LEASE_TTL_SECONDS = 300;

  /** The default lease time-to-live. */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(DEFAULT_LEASE_TTL_SECONDS);

  /** Materials shorter than this are not searched for in provider results (they would match ordinary text). */
  static final int MINIMUM_SCANNED_MATERIAL_LENGTH = 8;

  private static final Logger LOG = LoggerFactory.getLogger(SecretStore.class);
  private static final Duration MAXIMUM_SWEEP_INTERVAL = Duration.ofSeconds(60);

  private final Clock clock;
  private final Duration leaseTtl;
  private final Duration sweepInterval;
  private final Map<String, Registration> leases = new ConcurrentHashMap<>();
  private final Object sweepLock = new Object();
  private Instant nextSweepAt = Instant.MIN;

  /**
   * @param clock the clock of lease issue and expiry
   * @param leaseTtl how long a lease stays redeemable; positive
   */
  protected SecretStore(Clock clock, Duration leaseTtl) {
    if (clock == null) {
      throw new IllegalArgumentException("clock is required");
    }
    if (leaseTtl == null) {
      throw new IllegalArgumentException("lease_ttl is required");
    }
    if (leaseTtl.isZero() || leaseTtl.isNegative()) {
      throw new IllegalArgumentException("lease_ttl must be positive");
    }
    this.clock = clock;
    this.leaseTtl = leaseTtl;
    this.sweepInterval = leaseTtl.compareTo(MAXIMUM_SWEEP_INTERVAL) < 0 ? leaseTtl : MAXIMUM_SWEEP_INTERVAL;
  }

  // ---------------------------------------------------------------- public operations

  /**
   * Stores new material for {@code organization} under a freshly minted handle. The store keeps its own copy; the
   * caller still owns (and should zero) {@code material}.
   *
   * @return the new handle
   * @throws CustodyException {@code CUSTODY_EMPTY_MATERIAL} for empty material, {@code CUSTODY_BACKEND_FAILURE}
   */
  public final SecretRef put(OrganizationId organization, byte[] material) {
    requireOrganization(organization);
    byte[] copy = copyOf(material);
    try {
      while (true) {
        SecretRef ref = SecretHandles.mint(organization);
        if (backend("put", () -> create(ref.handle(), copy))) {
          return ref;
        }
      }
    } finally {
      Arrays.fill(copy, (byte) 0);
    }
  }

  /** {@link #put(OrganizationId, byte[])} of the UTF-8 encoding of {@code material}. */
  public final SecretRef put(OrganizationId organization, char[] material) {
    requireOrganization(organization);
    byte[] encoded = encode(material);
    try {
      return put(organization, encoded);
    } finally {
      Arrays.fill(encoded, (byte) 0);
    }
  }

  /**
   * Checks that the secret exists (without reading it) and issues a one-shot lease, valid for the lease TTL.
   *
   * @throws CustodyException {@code CUSTODY_SCOPE_MISMATCH} (before any backend access), {@code CUSTODY_NOT_FOUND},
   *     {@code CUSTODY_BACKEND_FAILURE}
   */
  public final SecretLease resolve(SecretRef ref, OrganizationId organization) {
    SecretHandles.requireScope(ref, organization);
    if (!backend("resolve", () -> contains(ref.handle()))) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_NOT_FOUND);
    }
    Instant now = clock.instant();
    sweepExpiredLeases(now);
    SecretLease lease = new SecretLease(ref, UUID.randomUUID().toString(), now, now.plus(leaseTtl));
    leases.put(lease.leaseId(), new Registration(ref.handle(), organization, lease.expiresAt()));
    return lease;
  }

  /**
   * Replaces the material of an existing secret; the handle stays the same. Outstanding leases then read the new
   * material.
   *
   * @return {@code ref}
   * @throws CustodyException {@code CUSTODY_SCOPE_MISMATCH} (before any backend access), {@code CUSTODY_EMPTY_MATERIAL},
   *     {@code CUSTODY_NOT_FOUND} (rotate never creates a secret), {@code CUSTODY_BACKEND_FAILURE}
   */
  public final SecretRef rotate(SecretRef ref, OrganizationId organization, byte[] material) {
    SecretHandles.requireScope(ref, organization);
    byte[] copy = copyOf(material);
    try {
      if (!backend("rotate", () -> replace(ref.handle(), copy))) {
        throw new CustodyException(CustodyErrorCode.CUSTODY_NOT_FOUND);
      }
      return ref;
    } finally {
      Arrays.fill(copy, (byte) 0);
    }
  }

  /** {@link #rotate(SecretRef, OrganizationId, byte[])} with the UTF-8 encoding of {@code material}. */
  public final SecretRef rotate(SecretRef ref, OrganizationId organization, char[] material) {
    SecretHandles.requireScope(ref, organization);
    byte[] encoded = encode(material);
    try {
      return rotate(ref, organization, encoded);
    } finally {
      Arrays.fill(encoded, (byte) 0);
    }
  }

  /**
   * Removes the secret; idempotent (deleting an absent secret succeeds). Outstanding leases then fail with
   * {@code CUSTODY_NOT_FOUND} when redeemed. Never touches effect records, receipts or evidence.
   *
   * @throws CustodyException {@code CUSTODY_SCOPE_MISMATCH} (before any backend access), {@code CUSTODY_BACKEND_FAILURE}
   */
  public final void delete(SecretRef ref, OrganizationId organization) {
    SecretHandles.requireScope(ref, organization);
    backend("delete", () -> remove(ref.handle()));
  }

  /**
   * Whether the secret is reachable; never throws for store failures. Unreachable details are fixed texts: {@code ref
   * does not belong to organization} (checked before any backend access), {@code secret not found}, {@code secret
   * store unreachable}.
   */
  public final SecretHealth health(SecretRef ref, OrganizationId organization) {
    if (ref == null) {
      throw new IllegalArgumentException("ref is required");
    }
    requireOrganization(organization);
    if (!SecretHandles.inScope(ref, organization)) {
      return SecretHealth.unreachable(clock.instant(), "ref does not belong to organization");
    }
    boolean present;
    try {
      present = backend("health", () -> contains(ref.handle()));
    } catch (CustodyException e) {
      return SecretHealth.unreachable(clock.instant(), "secret store unreachable");
    }
    return present
        ? SecretHealth.reachable(clock.instant())
        : SecretHealth.unreachable(clock.instant(), "secret not found");
  }

  /** The lease time-to-live of this store. */
  final Duration leaseTtl() {
    return leaseTtl;
  }

  // ---------------------------------------------------------------- backend SPI

  /**
   * Stores {@code material} under {@code handle} unless the handle is already taken.
   *
   * @return {@code false} if {@code handle} already holds a secret (nothing changed)
   */
  protected abstract boolean create(String handle, byte[] material) throws Exception;

  /**
   * Replaces the material under {@code handle} if it exists.
   *
   * @return {@code false} if {@code handle} holds no secret (nothing changed)
   */
  protected abstract boolean replace(String handle, byte[] material) throws Exception;

  /**
   * Reads the material under {@code handle} into a new array that the caller owns and zeroes.
   *
   * @return the material, or {@code null} if {@code handle} holds no secret
   */
  protected abstract byte @Nullable [] read(String handle) throws Exception;

  /**
   * Removes the secret under {@code handle}.
   *
   * @return whether a secret was removed
   */
  protected abstract boolean remove(String handle) throws Exception;

  /** Whether {@code handle} holds a secret; must not decrypt or read the material if avoidable. */
  protected abstract boolean contains(String handle) throws Exception;

  // ---------------------------------------------------------------- custody window

  /**
   * What runs inside the custody window: the only code that ever sees the material. {@code material} is readable only
   * until {@link #call} returns or throws; keep neither the arrays nor anything derived from them (a header string, a
   * copy) beyond the call.
   *
   * @param <R> the result handed back to the redeemer
   */
  @FunctionalInterface
  public interface CustodyCall<R> {

    /**
     * Uses the secret, typically for exactly one provider call. Any exception thrown here becomes
     * {@link CustodyErrorCode#CUSTODY_PROVIDER_FAILED} without cause or text.
     */
    R call(SecretMaterial material) throws Exception;
  }

  /**
   * Redeems {@code lease} once and runs {@code call} with the secret material: the public, scoped, one-shot custody
   * window, for dispatchers, reconcilers and read adapters that ZeoCore did not write.
   *
   * <p>In this order: checks that the lease's ref belongs to {@code organization} (before any backend access);
   * consumes the lease, whatever happens next, so a lease is spent even when a later check, the backend or the callback
   * fails; checks that the lease was issued by this store for this ref and organization and has not expired
   * ({@code now < expiresAt}); reads the material from the backend (so a {@link #rotate} made after the lease was
   * issued is what the callback sees); runs {@code call}; zeroes the material and every view handed out when the call
   * returns or throws. The material therefore exists only inside the callback.
   *
   * <p>Whatever the callback throws (a checked or runtime exception, an error) becomes a {@link CustodyException}
   * {@link CustodyErrorCode#CUSTODY_PROVIDER_FAILED} with no cause and no suppressed exception, so that no provider
   * text, and no material a provider might have echoed, travels up the stack; only the exception's class name is
   * logged. An interrupt is restored on the current thread. A result that is a {@link CharSequence} repeating the
   * material (8 bytes or longer) is refused with {@link CustodyErrorCode#CUSTODY_INVALID_RESULT}; any other result,
   * {@code null} included, is returned as is, and keeping material out of it is the callback's duty.
   *
   * @return what {@code call} returned
   * @throws CustodyException {@code CUSTODY_SCOPE_MISMATCH}, {@code CUSTODY_LEASE_UNKNOWN} (never issued here, already
   *     redeemed, or evicted after expiry), {@code CUSTODY_LEASE_BINDING_MISMATCH}, {@code CUSTODY_LEASE_EXPIRED},
   *     {@code CUSTODY_NOT_FOUND} (deleted since), {@code CUSTODY_EMPTY_MATERIAL}, {@code CUSTODY_BACKEND_FAILURE}:
   *     raised before the callback, {@link CustodyException#providerCalled()} is {@code false};
   *     {@code CUSTODY_PROVIDER_FAILED}, {@code CUSTODY_INVALID_RESULT}: raised after it was entered
   * @throws IllegalArgumentException when an argument is {@code null}
   */
  @SuppressWarnings("NullAway") // what the call returned: R carries its nullness
  public final <R> R redeem(SecretLease lease, OrganizationId organization, CustodyCall<R> call) {
    if (call == null) {
      throw new IllegalArgumentException("call is required");
    }
    return redeem(lease, organization, call, false,
        result -> result instanceof CharSequence text ? List.of(text.toString()) : List.of());
  }

  /**
   * Redeems {@code lease} for {@code organization} and runs {@code call} with the material, zeroing it afterwards. The
   * call's result must be non-null and none of {@code resultTexts(result)} may contain the material.
   */
  @SuppressWarnings("NullAway") // with resultRequired a null result is CUSTODY_INVALID_RESULT, never returned
  final <R> R redeem(SecretLease lease, OrganizationId organization, CustodyCall<R> call,
      Function<R, List<String>> resultTexts) {
    return redeem(lease, organization, call, true, resultTexts);
  }

  private <R> @Nullable R redeem(SecretLease lease, OrganizationId organization, CustodyCall<R> call,
      boolean resultRequired,
      Function<R, List<String>> resultTexts) {
    if (lease == null) {
      throw new IllegalArgumentException("lease is required");
    }
    SecretHandles.requireScope(lease.ref(), organization);
    Registration registration = leases.remove(lease.leaseId());
    if (registration == null) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_LEASE_UNKNOWN);
    }
    if (!registration.handle().equals(lease.ref().handle()) || !registration.organization().equals(organization)) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_LEASE_BINDING_MISMATCH);
    }
    if (!registration.expiresAt().equals(lease.expiresAt()) || lease.isExpiredAt(clock.instant())) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_LEASE_EXPIRED);
    }
    byte[] bytes = backend("read", () -> Optional.ofNullable(read(lease.ref().handle())))
        .orElseThrow(() -> new CustodyException(CustodyErrorCode.CUSTODY_NOT_FOUND));
    try (SecretMaterial material = new SecretMaterial(bytes)) {
      if (bytes.length == 0) {
        throw new CustodyException(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
      }
      R result;
      try {
        result = call.call(material);
      } catch (Throwable failure) {
        if (failure instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.warn("Provider callback failed inside custody ({}); its exception of type {} was discarded",
            CustodyErrorCode.CUSTODY_PROVIDER_FAILED, failure.getClass().getName());
        throw new CustodyException(CustodyErrorCode.CUSTODY_PROVIDER_FAILED);
      }
      if (result == null) {
        if (!resultRequired) {
          return null;
        }
        LOG.warn("Provider callback returned no result inside custody ({})", CustodyErrorCode.CUSTODY_INVALID_RESULT);
        throw new CustodyException(CustodyErrorCode.CUSTODY_INVALID_RESULT);
      }
      for (String text : resultTexts.apply(result)) {
        if (material.appearsIn(text, MINIMUM_SCANNED_MATERIAL_LENGTH)) {
          LOG.warn("Provider callback returned a result repeating the secret material ({})",
              CustodyErrorCode.CUSTODY_INVALID_RESULT);
          throw new CustodyException(CustodyErrorCode.CUSTODY_INVALID_RESULT);
        }
      }
      return result;
    }
  }

  /** The number of issued, unconsumed, not yet evicted leases. */
  final int outstandingLeases() {
    return leases.size();
  }

  // ---------------------------------------------------------------- internals

  @FunctionalInterface
  private interface BackendCall<T> {
    T call() throws Exception;
  }

  private <T> T backend(String operation, BackendCall<T> call) {
    try {
      return call.call();
    } catch (CustodyException e) {
      throw e;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("Secret store backend failed during {} ({}); its exception of type {} was discarded", operation,
          CustodyErrorCode.CUSTODY_BACKEND_FAILURE, e.getClass().getName());
      throw new CustodyException(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
    }
  }

  private void sweepExpiredLeases(Instant now) {
    synchronized (sweepLock) {
      if (now.isBefore(nextSweepAt)) {
        return;
      }
      nextSweepAt = now.plus(sweepInterval);
    }
    leases.values().removeIf(registration -> !now.isBefore(registration.expiresAt()));
  }

  private static void requireOrganization(OrganizationId organization) {
    if (organization == null) {
      throw new IllegalArgumentException("organization_id is required");
    }
  }

  private static byte[] copyOf(byte[] material) {
    if (material == null) {
      throw new IllegalArgumentException("material is required");
    }
    if (material.length == 0) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
    }
    return material.clone();
  }

  private static byte[] encode(char[] material) {
    if (material == null) {
      throw new IllegalArgumentException("material is required");
    }
    if (material.length == 0) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_EMPTY_MATERIAL);
    }
    return SecretMaterial.encode(material);
  }

  private record Registration(String handle, OrganizationId organization, Instant expiresAt) {}
}
