package io.zeocore.connections.contract;

/**
 * Why an effect authorization was refused. Exactly one reason per refused verdict: the first failing check of
 * the verifier, in the order {@code ABSENT}, {@code ORGANIZATION_MISMATCH}, {@code CONNECTION_MISMATCH}, {@code
 * CONNECTOR_REVISION_MISMATCH}, {@code OPERATION_MISMATCH}, {@code REQUEST_DIGEST_MISMATCH}, {@code AUDIENCE_MISMATCH},
 * {@code ISSUER_UNTRUSTED}, {@code EXPIRED}, {@code NOT_YET_VALID}, {@code SIGNATURE_UNVERIFIABLE}, {@code REPLAYED}
 * (declaration order here is the reference's inventory order followed by ZeoCore's addition, not the check order).
 * There is no catch-all reason.
 */
public enum AuthorizationRefusalReason {
  ABSENT,
  ORGANIZATION_MISMATCH,
  CONNECTION_MISMATCH,
  CONNECTOR_REVISION_MISMATCH,
  OPERATION_MISMATCH,
  REQUEST_DIGEST_MISMATCH,
  AUDIENCE_MISMATCH,
  ISSUER_UNTRUSTED,
  SIGNATURE_UNVERIFIABLE,
  EXPIRED,
  REPLAYED,
  /**
   * ZeoCore addition (not in the reference): {@code issued_at} lies further in the future than the verifier's allowed
   * clock skew. Checked right after {@code EXPIRED}.
   */
  NOT_YET_VALID;
}
