package io.zeocore.connections.admission;

import io.zeocore.connections.effect.EffectPreflightException;
import io.zeocore.connections.read.ReadPreflightException;
import org.jspecify.annotations.Nullable;

/**
 * The state and accessors that {@link EffectPreflightException} and {@link ReadPreflightException} share: which
 * preflight check failed and, for an admission refusal, which admission rule. The two public types stay distinct so
 * that callers catch effect and read rejections separately.
 */
public abstract class PreflightException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final PreflightCode code;
  private final @Nullable AdmissionCode admissionCode;

  protected PreflightException(PreflightCode code, String message) {
    super(message);
    this.code = code;
    this.admissionCode = null;
  }

  protected PreflightException(String message, AdmissionException cause) {
    super(message, cause);
    this.code = PreflightCode.ADMISSION_REFUSED;
    this.admissionCode = cause.code();
  }

  /** Which check failed. */
  public PreflightCode code() {
    return code;
  }

  /** The admission rule that failed, for {@link PreflightCode#ADMISSION_REFUSED}; else {@code null}. */
  public @Nullable AdmissionCode admissionCode() {
    return admissionCode;
  }
}
