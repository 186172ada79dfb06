package io.zeocore.connections.custody;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Whether a secret is reachable in its store, as {@link SecretStore#health} observed it. An unreachable secret carries
 * a fixed detail that never contains the handle or material.
 *
 * @param reachable whether the secret exists and the backend answered
 * @param checkedAt when the store checked
 * @param detail why the secret is unreachable; required when {@code reachable} is {@code false}, optional otherwise
 */
public record SecretHealth(boolean reachable, Instant checkedAt, @Nullable String detail) {

  public SecretHealth {
    if (checkedAt == null) {
      throw new IllegalArgumentException("checked_at is required");
    }
    if (detail != null && detail.isBlank()) {
      throw new IllegalArgumentException("detail must not be empty or whitespace only");
    }
    if (!reachable && detail == null) {
      throw new IllegalArgumentException("unreachable secret health must carry a non-None detail");
    }
  }

  static SecretHealth reachable(Instant checkedAt) {
    return new SecretHealth(true, checkedAt, null);
  }

  static SecretHealth unreachable(Instant checkedAt, String detail) {
    return new SecretHealth(false, checkedAt, detail);
  }
}
