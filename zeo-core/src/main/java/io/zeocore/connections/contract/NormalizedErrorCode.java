package io.zeocore.connections.contract;

/**
 * The provider-neutral error taxonomy of receipts and results; the constant names are the wire values. It is a
 * separate vocabulary from {@link EffectState}: {@code FAILED_SAFE} here is an error code, never a state. {@link
 * #STOPPED} exists for hosted clients and is not produced by the orchestrator.
 */
public enum NormalizedErrorCode {
  CONNECTION_REVOKED,
  CONNECTION_REPAIR_REQUIRED,
  PROVIDER_SCOPE_MISSING,
  EXTERNAL_IDENTITY_CHANGED,
  BUSINESS_RESOURCE_UNAVAILABLE,
  RATE_LIMITED,
  PROVIDER_UNAVAILABLE,
  REQUEST_REFUSED,
  FAILED_SAFE,
  RESULT_AMBIGUOUS,
  CONNECTOR_REVISION_UNAVAILABLE,
  STOPPED;
}
