package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;

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

  /**
   * The wire value: exactly the constant's name (e.g. {@code ABSENT}).
   * Annotated so that every JSON mapper, not only {@link ContractJson}, writes it whatever its enum features
   * (lowercase, {@code toString}, index).
   */
  @JsonValue
  public String wireValue() {
    return name();
  }

  /**
   * The constant whose wire value is exactly {@code value} (case-sensitive, no trimming); what every JSON mapper reads.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static AuthorizationRefusalReason fromWireValue(String value) {
    return ContractRules.wireConstant(AuthorizationRefusalReason.class, value);
  }
}
