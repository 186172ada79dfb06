package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import java.util.Objects;

/**
 * What the {@link Observation.Context contexts} of a run of the {@link io.zeocore.execution.ResilientRunner} and of its
 * attempts have in common: the policy's name and the run's execution id.
 *
 * @see ExecutionObservationContext
 * @see AttemptObservationContext
 */
public abstract class PolicyRunContext extends Observation.Context {

  private final String policyName;
  private final String executionId;

  PolicyRunContext(String policyName, String executionId) {
    this.policyName = Objects.requireNonNull(policyName, "policyName");
    this.executionId = Objects.requireNonNull(executionId, "executionId");
  }

  public String getPolicyName() {
    return policyName;
  }

  public String getExecutionId() {
    return executionId;
  }
}
