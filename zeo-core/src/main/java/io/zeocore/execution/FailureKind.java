package io.zeocore.execution;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.WireValue;
import io.zeocore.internal.WireValues;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The normalized class of a failed attempt, in the reference's declared order. Each kind has a fixed machine code
 * ({@link #machineCode()}) and its lowercase name as wire value ({@code rate_limit}); no provider text is ever
 * attached to a kind.
 *
 * <p>{@link #VALIDATION}, {@link #AUTHORIZATION}, {@link #AUTHENTICATION}, {@link #CANCELLED} and {@link #PERMANENT}
 * can never be retryable. {@link #TIMEOUT}, {@link #TRANSIENT} and {@link #RATE_LIMIT} are retryable by default;
 * {@link #MALFORMED_RESPONSE} is the one kind that is not retryable by default but may be made so.
 */
public enum FailureKind implements WireValue.Lowercase {
  TIMEOUT(MachineCodes.TIMEOUT),
  TRANSIENT(MachineCodes.TRANSIENT),
  RATE_LIMIT(MachineCodes.RATE_LIMIT),
  MALFORMED_RESPONSE(MachineCodes.MALFORMED_RESPONSE),
  VALIDATION(MachineCodes.VALIDATION),
  AUTHORIZATION(MachineCodes.AUTHORIZATION),
  AUTHENTICATION(MachineCodes.AUTHENTICATION),
  CANCELLED(MachineCodes.CANCELLED),
  PERMANENT(MachineCodes.PERMANENT);

  /** Kinds that no policy may mark retryable. */
  public static final Set<FailureKind> NEVER_RETRYABLE =
      Collections.unmodifiableSet(EnumSet.of(VALIDATION, AUTHORIZATION, AUTHENTICATION, CANCELLED, PERMANENT));

  /** The retryable set of a policy that does not name one. */
  public static final Set<FailureKind> DEFAULT_RETRYABLE =
      Collections.unmodifiableSet(EnumSet.of(TIMEOUT, TRANSIENT, RATE_LIMIT));

  private final String machineCode;

  FailureKind(String machineCode) {
    this.machineCode = machineCode;
  }

  /** The {@code ZEO_EXEC_*} machine code of this kind, e.g. {@code ZEO_EXEC_RATE_LIMIT}. */
  public String machineCode() {
    return machineCode;
  }

  /** Whether this kind belongs to {@link #NEVER_RETRYABLE}. */
  public boolean isNeverRetryable() {
    return NEVER_RETRYABLE.contains(this);
  }

  /**
   * Parses a wire value ({@code rate_limit}) or, leniently, the constant name ({@code RATE_LIMIT}, {@code rate-limit}).
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator
  public static FailureKind fromWireValue(String value) {
    return WireValues.parseLenient(FailureKind.class, value);
  }

  /**
   * The kind of a failed HTTP exchange by its status alone, as ZeoCore's LLM clients and its default
   * {@link ExceptionClassifier} classify Spring's HTTP client exceptions: 429 {@link #RATE_LIMIT}, 401 and 403
   * {@link #AUTHENTICATION}, 408 and 504 {@link #TIMEOUT}, every other 5xx {@link #TRANSIENT}, anything else
   * {@link #PERMANENT}.
   */
  public static FailureKind ofHttpStatus(int status) {
    if (status == 429) {
      return RATE_LIMIT;
    }
    if (status == 401 || status == 403) {
      return AUTHENTICATION;
    }
    if (status == 408 || status == 504) {
      return TIMEOUT;
    }
    if (status >= 500 && status <= 599) {
      return TRANSIENT;
    }
    return PERMANENT;
  }
}
