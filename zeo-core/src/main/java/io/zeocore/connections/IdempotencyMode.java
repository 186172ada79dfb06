package io.zeocore.connections;

/**
 * How a {@link BusinessOperation} achieves idempotency at the provider.
 */
public enum IdempotencyMode {
  PROVIDER_NATIVE,
  KERNEL_MANAGED,
  NOT_IDEMPOTENT;
}
