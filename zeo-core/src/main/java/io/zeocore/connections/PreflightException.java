package io.zeocore.connections;

import io.zeocore.connections.admission.AdmissionCode;
import io.zeocore.connections.admission.AdmissionException;

/**
 * The state and accessors that {@link EffectPreflightException} and {@link ObservationPreflightException} share: which
 * preflight check failed and, for an admission refusal, which admission rule. The two public types stay distinct so
 * that callers catch effect and observation rejections separately.
 */
abstract class PreflightException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final PreflightCode code;
  private final AdmissionCode admissionCode;

  PreflightException(PreflightCode code, String message) {
    super(message);
    this.code = code;
    this.admissionCode = null;
  }

  PreflightException(String message, AdmissionException cause) {
    super(message, cause);
    this.code = PreflightCode.ADMISSION_REFUSED;
    this.admissionCode = cause.code();
  }

  /** Which check failed. */
  public PreflightCode code() {
    return code;
  }

  /** The admission rule that failed, for {@link PreflightCode#ADMISSION_REFUSED}; else {@code null}. */
  public AdmissionCode admissionCode() {
    return admissionCode;
  }
}
