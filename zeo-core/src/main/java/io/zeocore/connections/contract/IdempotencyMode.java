package io.zeocore.connections.contract;

/**
 * How a {@link BusinessOperation} achieves idempotency at the provider.
 */
public enum IdempotencyMode {
  PROVIDER_NATIVE,
  KERNEL_MANAGED,
  NOT_IDEMPOTENT;
}
