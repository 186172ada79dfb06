package io.zeocore.autoconfigure.faults;

import java.util.Objects;

/**
 * Published each time fault injection acts on a call: {@code fault} is the injected kind's wire value
 * ({@code timeout}, {@code rate_limit}, …), {@code hang} or {@code latency}. An injected failure's attempt record also
 * carries {@code ZEO_EXEC_FAULT_INJECTED}; added latency leaves no failure, so this event and the
 * {@code zeocore.faults.injected} meter are its only trace.
 *
 * @param targetId the target whose call got the fault
 * @param fault what was injected
 */
public record FaultInjectedEvent(String targetId, String fault) {

  public FaultInjectedEvent {
    Objects.requireNonNull(targetId, "targetId");
    Objects.requireNonNull(fault, "fault");
  }
}
