package io.zeocore.connections.custody;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A backend implemented through the public SPI hooks that records which hooks ran (never material) and can be told to
 * fail with an exception whose message carries a given text.
 */
final class RecordingSecretStore extends SecretStore {

  final List<String> calls = new ArrayList<>();
  private final Map<String, byte[]> secrets = new ConcurrentHashMap<>();
  private volatile String failWith;

  RecordingSecretStore(Clock clock) {
    super(clock, Duration.ofSeconds(300));
  }

  /** Every later hook throws an {@link IOException} whose message is {@code text}. */
  void failWith(String text) {
    failWith = text;
  }

  /** Puts raw material under a handle, bypassing the checks of {@link SecretStore#put}. */
  void plant(String handle, byte[] material) {
    secrets.put(handle, material.clone());
  }

  private synchronized void record(String hook) throws IOException {
    calls.add(hook);
    if (failWith != null) {
      throw new IOException(failWith);
    }
  }

  @Override
  protected boolean create(String handle, byte[] material) throws IOException {
    record("create");
    return secrets.putIfAbsent(handle, material.clone()) == null;
  }

  @Override
  protected boolean replace(String handle, byte[] material) throws IOException {
    record("replace");
    return secrets.replace(handle, material.clone()) != null;
  }

  @Override
  protected byte[] read(String handle) throws IOException {
    record("read");
    byte[] material = secrets.get(handle);
    return material == null ? null : material.clone();
  }

  @Override
  protected boolean remove(String handle) throws IOException {
    record("remove");
    return secrets.remove(handle) != null;
  }

  @Override
  protected boolean contains(String handle) throws IOException {
    record("contains");
    return secrets.containsKey(handle);
  }
}
