package io.zeocore.springai;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ResilientExecutionResult;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.chat.model.ChatResponse;

/**
 * What a {@link PolicyChatModel} answer says about the run that produced it, in the {@link ChatResponse}'s metadata
 * under {@value #METADATA_KEY}: the policy, the run's execution id, the target that answered, the outcome and every
 * attempt record (ids, kinds, codes, timings and reported usage only; never provider text).
 *
 * @param policy the policy's name
 * @param executionId the run's execution id, as in its events, observations and log lines
 * @param selectedTargetId the target that answered
 * @param outcome the run's outcome ({@code SUCCEEDED} for an answer)
 * @param attempts every attempt of the run, in call order
 */
public record PlanEvidence(String policy, String executionId, String selectedTargetId, ExecutionOutcome outcome,
    List<AttemptRecord> attempts) {

  /** The metadata key of a {@link PolicyChatModel} answer's evidence. */
  public static final String METADATA_KEY = "zeocore.plan";

  public PlanEvidence {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(executionId, "executionId");
    Objects.requireNonNull(selectedTargetId, "selectedTargetId");
    Objects.requireNonNull(outcome, "outcome");
    attempts = List.copyOf(attempts);
  }

  /** The evidence of a successful run of {@code policy}. */
  static PlanEvidence of(String policy, ResilientExecutionResult<?> result) {
    return new PlanEvidence(policy, Objects.requireNonNull(result.executionId(), "executionId"),
        Objects.requireNonNull(result.selectedTargetId(), "selectedTargetId"), result.outcome(), result.attempts());
  }

  /** The evidence of {@code response}, when a {@link PolicyChatModel} produced it. */
  public static Optional<PlanEvidence> of(ChatResponse response) {
    Object evidence = response.getMetadata().get(METADATA_KEY);
    return evidence instanceof PlanEvidence plan ? Optional.of(plan) : Optional.empty();
  }
}
