package io.zeocore.connections.admission;

import java.util.Objects;

/**
 * A refusal by {@link ConnectorAdmission}: the code says which rule failed, the message says it in words. Messages may
 * name manifest values (origins, operation ids) but never request-body content (keys or values) or secrets.
 */
public class AdmissionException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final AdmissionCode code;

  public AdmissionException(AdmissionCode code, String message) {
    super(Objects.requireNonNull(code, "code").machineCode() + ": " + Objects.requireNonNull(message, "message"));
    this.code = code;
  }

  /** The rule that failed. */
  public AdmissionCode code() {
    return code;
  }
}
