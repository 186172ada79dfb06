package io.zeocore.autoconfigure.faults;

import io.zeocore.execution.FailureKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Fault injection into a running application's registered targets, for a staging profile: failures of a kind,
 * latency or a hang, at a rate. Off unless enabled and the named profile is active; never applied to effects.
 */
@ConfigurationProperties("zeocore.faults")
public class ZeoCoreFaultsProperties {

  /** Whether to inject faults. Start-up refuses it unless profile names an active profile. */
  private boolean enabled;

  /** The profile fault injection is meant for (typically staging): start-up refuses it when that one is not active. */
  private @Nullable String profile;

  /** Faults by registered target id. */
  private final Map<String, TargetFault> targets = new LinkedHashMap<>();

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public @Nullable String getProfile() {
    return this.profile;
  }

  public void setProfile(@Nullable String profile) {
    this.profile = profile;
  }

  public Map<String, TargetFault> getTargets() {
    return this.targets;
  }

  /** What to inject into one target's calls. */
  public static class TargetFault {

    /** Fraction of the target's calls that get the fault, more than 0 and at most 1. Default: 1 (every call). */
    private double rate = 1.0;

    /**
     * The failure kind injected instead of calling the target (timeout, transient, rate_limit, malformed_response,
     * validation, authorization, authentication, permanent). Recorded as ZEO_EXEC_FAULT_INJECTED with this kind.
     */
    private @Nullable FailureKind kind;

    /** The Retry-After injected with a rate_limit. */
    private @Nullable Duration retryAfter;

    /** Latency added before the real call (the call then happens). Default: none. */
    private @Nullable Duration latency;

    /**
     * Whether the call hangs: it spends the attempt timeout (an async target nine tenths of it), then fails timeout
     * (injected). Default: false.
     */
    private boolean hang;

    public double getRate() {
      return this.rate;
    }

    public void setRate(double rate) {
      this.rate = rate;
    }

    public @Nullable FailureKind getKind() {
      return this.kind;
    }

    public void setKind(@Nullable FailureKind kind) {
      this.kind = kind;
    }

    public @Nullable Duration getRetryAfter() {
      return this.retryAfter;
    }

    public void setRetryAfter(@Nullable Duration retryAfter) {
      this.retryAfter = retryAfter;
    }

    public @Nullable Duration getLatency() {
      return this.latency;
    }

    public void setLatency(@Nullable Duration latency) {
      this.latency = latency;
    }

    public boolean isHang() {
      return this.hang;
    }

    public void setHang(boolean hang) {
      this.hang = hang;
    }
  }
}
