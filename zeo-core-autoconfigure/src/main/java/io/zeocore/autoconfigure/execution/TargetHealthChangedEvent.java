package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.TargetHealth;
import java.util.Objects;

/**
 * Published when a target starts cooling (again), when a run of this instance starts probing it, and when it reopens,
 * as this instance saw it: {@code change.fromStore()} says another instance made the change and this one read it from
 * the shared store. Published on the thread that made or read the change (a run's, or the target health's background
 * thread). Carries the target id, the transition, the failure kind and reason that cooled it and how long: never a
 * request, response or provider text.
 *
 * @param change what changed
 */
public record TargetHealthChangedEvent(TargetHealth.Change change) {

  public TargetHealthChangedEvent {
    Objects.requireNonNull(change, "change");
  }
}
