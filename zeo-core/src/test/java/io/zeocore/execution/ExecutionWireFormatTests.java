package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Jackson writes and reads the execution enums as the lowercase wire values DESIGN names, as YAML does. */
class ExecutionWireFormatTests {

  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void enumsAreWrittenAsTheirLowercaseWireValues() {
    assertThat(json.writeValueAsString(ExecutionOutcome.FAILED_SAFE)).isEqualTo("\"failed_safe\"");
    assertThat(json.writeValueAsString(FailureKind.RATE_LIMIT)).isEqualTo("\"rate_limit\"");
    assertThat(json.writeValueAsString(OperationMode.READ_ONLY)).isEqualTo("\"read_only\"");
    assertThat(json.writeValueAsString(DeadlineMode.ENFORCED)).isEqualTo("\"enforced\"");
    assertThat(json.writeValueAsString(ExecutionMode.SIMULATED)).isEqualTo("\"simulated\"");
    assertThat(json.writeValueAsString(AttemptOutcome.FAILED)).isEqualTo("\"failed\"");
  }

  @Test
  void enumsAreReadFromWireValuesAndTheYamlSpelling() {
    assertThat(json.readValue("\"failed_safe\"", ExecutionOutcome.class)).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(json.readValue("\"rate-limit\"", FailureKind.class)).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(json.readValue("\"read-only\"", OperationMode.class)).isEqualTo(OperationMode.READ_ONLY);
    assertThat(json.readValue("\"RATE_LIMIT\"", FailureKind.class)).isEqualTo(FailureKind.RATE_LIMIT);
  }

  @Test
  void anAttemptRecordSurvivesARoundTripWithWireValues() {
    AttemptRecord record = new AttemptRecord(2, "openai-api", ExecutionMode.LIVE, Duration.ofMillis(5),
        Duration.ofMillis(205), Duration.ofMillis(200), true, AttemptOutcome.FAILED, FailureKind.RATE_LIMIT,
        FailureKind.RATE_LIMIT.machineCode(), Duration.ofMillis(500));

    String written = json.writeValueAsString(record);

    assertThat(written).contains("\"failureKind\":\"rate_limit\"", "\"outcome\":\"failed\"",
        "\"executionMode\":\"live\"").doesNotContain("\"RATE_LIMIT\"", "\"FAILED\"", "\"LIVE\"");
    assertThat(json.readValue(written, AttemptRecord.class)).isEqualTo(record);
  }
}
