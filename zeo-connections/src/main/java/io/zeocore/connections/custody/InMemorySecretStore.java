package io.zeocore.connections.custody;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link SecretStore} that keeps material in process memory only, for tests and samples. Everything is lost when the
 * process ends. Removed and replaced material is zeroed. Thread-safe.
 */
public final class InMemorySecretStore extends SecretStore {

  private final Map<String, byte[]> secrets = new ConcurrentHashMap<>();

  /** A store with the system UTC clock and the default lease TTL of 300 s. */
  public InMemorySecretStore() {
    this(Clock.systemUTC(), DEFAULT_LEASE_TTL);
  }

  /**
   * @param clock the clock of lease issue and expiry
   * @param leaseTtl how long a lease stays redeemable; positive
   */
  public InMemorySecretStore(Clock clock, Duration leaseTtl) {
    super(clock, leaseTtl);
  }

  @Override
  protected boolean create(String handle, byte[] material) {
    byte[] copy = material.clone();
    if (secrets.putIfAbsent(handle, copy) != null) {
      Arrays.fill(copy, (byte) 0);
      return false;
    }
    return true;
  }

  @Override
  protected boolean replace(String handle, byte[] material) {
    byte[] copy = material.clone();
    byte[] previous = secrets.computeIfPresent(handle, (key, old) -> {
      Arrays.fill(old, (byte) 0);
      return copy;
    });
    if (previous == null) {
      Arrays.fill(copy, (byte) 0);
      return false;
    }
    return true;
  }

  @Override
  protected byte[] read(String handle) {
    byte[][] copy = new byte[1][];
    secrets.computeIfPresent(handle, (key, value) -> {
      copy[0] = value.clone();
      return value;
    });
    return copy[0];
  }

  @Override
  protected boolean remove(String handle) {
    byte[] removed = secrets.remove(handle);
    if (removed == null) {
      return false;
    }
    Arrays.fill(removed, (byte) 0);
    return true;
  }

  @Override
  protected boolean contains(String handle) {
    return secrets.containsKey(handle);
  }

  /** Shows the number of secrets only. */
  @Override
  public String toString() {
    return "InMemorySecretStore[secrets=" + secrets.size() + "]";
  }
}
