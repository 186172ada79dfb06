package io.zeocore.autoconfigure.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter's events and the runner's results read and write one wire format through Spring Boot's own
 * {@link JsonMapper} bean (what controllers and message converters use): lowercase wire values, milliseconds.
 */
class ExecutionJsonThroughSpringJsonMapperTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class));

  @Test
  void eventsAndResultsUseWireValuesAndMillisecondsThroughSpringsJsonMapper() {
    AttemptRecord failed = new AttemptRecord(1, "ollama-local", ExecutionMode.LIVE, Duration.ZERO,
        Duration.ofMillis(2), Duration.ofMillis(200), true, AttemptOutcome.FAILED, FailureKind.RATE_LIMIT,
        FailureKind.RATE_LIMIT.machineCode(), Duration.ofMillis(500));
    AttemptRecord succeeded = new AttemptRecord(2, "openai-api", ExecutionMode.LIVE, Duration.ofNanos(502_500_000),
        Duration.ofNanos(540_000_001), Duration.ofMillis(200), true, AttemptOutcome.SUCCEEDED, null, null,
        Duration.ZERO);
    ResilientExecutionResult<String> result = new ResilientExecutionResult<>(ExecutionOutcome.SUCCEEDED, "ok",
        List.of(failed, succeeded), "openai-api", ExecutionMode.LIVE, null, null, Duration.ofNanos(540_000_001));
    ExecutionCompletedEvent completed = ExecutionCompletedEvent.of("summarize", "exec-1", result);
    AttemptRecordedEvent recorded = new AttemptRecordedEvent("summarize", "exec-1", failed);

    runner.run(context -> {
      JsonMapper spring = context.getBean(JsonMapper.class);

      String completedJson = spring.writeValueAsString(completed);
      String recordedJson = spring.writeValueAsString(recorded);

      assertThat(completedJson).contains("\"outcome\":\"succeeded\"", "\"totalElapsed\":540.000001")
          .doesNotContain("PT", "SUCCEEDED");
      assertThat(recordedJson).contains("\"failureKind\":\"rate_limit\"", "\"timeout\":200",
          "\"backoffBeforeNext\":500").doesNotContain("PT", "\"RATE_LIMIT\"");
      assertThat(spring.readValue(completedJson, ExecutionCompletedEvent.class)).isEqualTo(completed);
      assertThat(spring.readValue(recordedJson, AttemptRecordedEvent.class)).isEqualTo(recorded);
    });
  }
}
