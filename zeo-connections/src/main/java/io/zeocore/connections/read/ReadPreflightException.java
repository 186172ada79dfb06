package io.zeocore.connections.read;

import io.zeocore.connections.admission.AdmissionException;
import io.zeocore.connections.admission.PreflightCode;
import io.zeocore.connections.admission.PreflightException;

/**
 * An authorized read request rejected by a preflight check (connection, revision, size, admission, exposure): nothing
 * was persisted, the nonce was not consumed, no provider was called. The message is the reference's phrase; it never
 * contains request-body content or secrets. {@link #code()} names the check that failed and {@link #admissionCode()}
 * the admission rule, for {@link PreflightCode#ADMISSION_REFUSED}.
 */
public class ReadPreflightException extends PreflightException {

  private static final long serialVersionUID = 1L;

  public ReadPreflightException(PreflightCode code, String message) {
    super(code, message);
  }

  /** An {@link PreflightCode#ADMISSION_REFUSED} rejection, keeping the admission exception as the cause. */
  public ReadPreflightException(String message, AdmissionException cause) {
    super(message, cause);
  }
}
