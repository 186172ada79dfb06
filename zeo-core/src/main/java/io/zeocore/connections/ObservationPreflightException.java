package io.zeocore.connections;

import io.zeocore.connections.admission.AdmissionCode;
import io.zeocore.connections.admission.AdmissionException;

/**
 * An authorized observation request rejected by a preflight check (connection, revision, size, admission, exposure): nothing
 * was persisted, the nonce was not consumed, no provider was called. The message is the reference's phrase; it never
 * contains request-body content or secrets.
 */
public class ObservationPreflightException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final PreflightCode code;
  private final AdmissionCode admissionCode;

  public ObservationPreflightException(PreflightCode code, String message) {
    super(message);
    this.code = code;
    this.admissionCode = null;
  }

  /** An {@link PreflightCode#ADMISSION_REFUSED} rejection, keeping the admission exception as the cause. */
  public ObservationPreflightException(String message, AdmissionException cause) {
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
