package io.zeocore.sample.summaries;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ResilientExecutionResult;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /api/summaries}: runs a read-only policy and answers with its outcome and every attempt record. */
@RestController
@RequestMapping("/api/summaries")
public class SummaryController {

  private final SummaryService summaries;
  private final ExecutionPolicies policies;

  public SummaryController(SummaryService summaries, ExecutionPolicies policies) {
    this.summaries = summaries;
    this.policies = policies;
  }

  /**
   * Runs {@code policy} and answers with its evidence, under a status that says how the run ended (see
   * {@link #status}); an unknown policy name is a 400 that lists the configured ones, and nothing runs.
   */
  @PostMapping(consumes = MediaType.TEXT_PLAIN_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<?> summarize(@RequestParam(defaultValue = "summarize") String policy,
      @RequestBody String text) {
    if (policies.find(policy).isEmpty()) {
      return ResponseEntity.badRequest().body(Map.of("error", "unknown policy", "policies", policies.names()));
    }
    ResilientExecutionResult<String> result = summaries.summarize(policy, text);
    return ResponseEntity.status(status(result.outcome())).body(SummaryResponse.of(policy, result));
  }

  /**
   * The HTTP status of a run's outcome, the JSON body being the same for all: {@code 200} for {@code succeeded};
   * {@code 503 Service Unavailable} for {@code exhausted} (every planned provider failed retryably or the budget ran
   * out: trying later may help) and {@code cancelled}; {@code 502 Bad Gateway} for {@code failed_safe} (a provider
   * failed in a way retrying does not fix); {@code 500} for {@code refused} (the plan or a target's configuration
   * barred the run).
   */
  static HttpStatus status(ExecutionOutcome outcome) {
    return switch (outcome) {
      case SUCCEEDED -> HttpStatus.OK;
      case EXHAUSTED, CANCELLED -> HttpStatus.SERVICE_UNAVAILABLE;
      case FAILED_SAFE -> HttpStatus.BAD_GATEWAY;
      case REFUSED -> HttpStatus.INTERNAL_SERVER_ERROR;
    };
  }

  /** The evidence of one run, with times in milliseconds. */
  public record SummaryResponse(String policy, String outcome, String summary, String selectedTargetId,
      String executionMode, String failureKind, String machineCode, long totalElapsedMillis,
      List<Attempt> attempts) {

    static SummaryResponse of(String policy, ResilientExecutionResult<String> result) {
      return new SummaryResponse(policy, result.outcome().wireValue(), result.value(), result.selectedTargetId(),
          result.executionMode().wireValue(), result.failureKind() == null ? null : result.failureKind().wireValue(),
          result.machineCode(), result.totalElapsed().toMillis(),
          result.attempts().stream().map(Attempt::of).toList());
    }
  }

  /** One attempt record. */
  public record Attempt(int attemptNumber, String targetId, String outcome, String failureKind, String machineCode,
      boolean dispatchStarted, long startedAfterMillis, long endedAfterMillis, long timeoutMillis,
      long backoffBeforeNextMillis) {

    static Attempt of(AttemptRecord record) {
      return new Attempt(record.attemptNumber(), record.targetId(), record.outcome().wireValue(),
          record.failureKind() == null ? null : record.failureKind().wireValue(), record.machineCode(),
          record.dispatchStarted(), record.startedAfter().toMillis(), record.endedAfter().toMillis(),
          record.timeout().toMillis(), record.backoffBeforeNext().toMillis());
    }
  }
}
