package io.zeocore.connections.admission;

import io.zeocore.connections.effect.EffectPreflightException;
import io.zeocore.connections.read.ReadPreflightException;

/**
 * Why an authorized request was rejected before anything was persisted ({@link EffectPreflightException},
 * {@link ReadPreflightException}), in the order the checks run.
 */
public enum PreflightCode {
  /** The connection is missing in the organization or its status is not {@code ACTIVE}. */
  CONNECTION_NOT_ACTIVE,
  /** The connection pins another connector revision than the one requested. */
  CONNECTION_REVISION_MISMATCH,
  /** The connector revision is not stored for the organization. */
  CONNECTOR_REVISION_UNAVAILABLE,
  /** The request body is larger than the revision's {@code request_size_limit_bytes}. */
  REQUEST_TOO_LARGE,
  /** Connector admission refused the connection or the request; see the exception's admission code. */
  ADMISSION_REFUSED,
  /** The operation is not declared by the revision or not exposed by the connection. */
  OPERATION_NOT_EXPOSED,
  /** A {@code read} operation was sent to the effect orchestrator. */
  READ_ONLY_OPERATION,
  /** An effectful operation was sent to the observation orchestrator. */
  EFFECTFUL_OPERATION,
  /** The operation's resource argument names a business resource the connection did not select. */
  BUSINESS_RESOURCE_NOT_SELECTED
}
