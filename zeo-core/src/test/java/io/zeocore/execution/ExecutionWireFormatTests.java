package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson writes and reads the execution enums as the lowercase wire values DESIGN names, as YAML does, and every
 * duration as milliseconds.
 */
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

  @Test
  void aStreamedAttemptsEvidenceSurvivesARoundTripAndIsAbsentForOtherAttempts() {
    AttemptRecord streamed = new AttemptRecord(1, "ollama-local", ExecutionMode.LIVE, Duration.ZERO,
        Duration.ofMillis(900), Duration.ofSeconds(30), true, AttemptOutcome.FAILED, FailureKind.TIMEOUT,
        FailureKind.TIMEOUT.machineCode(), Duration.ZERO, null, new StreamEvidence(3, Duration.ofMillis(120)));
    String written = json.writeValueAsString(streamed);
    assertThat(written).contains("\"stream\":{\"chunks\":3,\"timeToFirstChunk\":120}");
    assertThat(json.readValue(written, AttemptRecord.class)).isEqualTo(streamed);

    AttemptRecord nothing = new AttemptRecord(1, "ollama-local", ExecutionMode.LIVE, Duration.ZERO,
        Duration.ofMillis(900), Duration.ofSeconds(30), true, AttemptOutcome.FAILED, FailureKind.TIMEOUT,
        FailureKind.TIMEOUT.machineCode(), Duration.ZERO, null, StreamEvidence.NOTHING_DELIVERED);
    assertThat(json.writeValueAsString(nothing)).contains("\"stream\":{\"chunks\":0}");
    assertThat(json.writeValueAsString(new AttemptRecord(1, "a", ExecutionMode.LIVE, Duration.ZERO, Duration.ZERO,
        Duration.ofSeconds(1), true, AttemptOutcome.SUCCEEDED, null, null, Duration.ZERO))).doesNotContain("stream");
  }

  @Test
  void streamEvidenceRefusesAFirstChunkTimeWithoutChunksAndTheReverse() {
    assertThatThrownBy(() -> new StreamEvidence(0, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StreamEvidence(2, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StreamEvidence(-1, null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void durationsAreWrittenAsMillisecondsExactToTheNanosecondAndReadBack() {
    AttemptRecord record = new AttemptRecord(1, "ollama-local", ExecutionMode.LIVE, Duration.ofNanos(32_919),
        Duration.ofMillis(205).plusNanos(1), Duration.ofSeconds(90), false, AttemptOutcome.SUCCEEDED, null, null,
        Duration.ZERO);
    ResilientExecutionResult<String> result = new ResilientExecutionResult<>(ExecutionOutcome.SUCCEEDED, "ok",
        List.of(record), "ollama-local", ExecutionMode.LIVE, null, null, Duration.ofDays(3).plusNanos(7));

    String writtenRecord = json.writeValueAsString(record);
    String writtenResult = json.writeValueAsString(result);

    assertThat(writtenRecord).contains("\"startedAfter\":0.032919", "\"endedAfter\":205.000001",
        "\"timeout\":90000,", "\"backoffBeforeNext\":0}").doesNotContain("PT", "E+", "E-");
    assertThat(writtenResult).contains("\"totalElapsed\":259200000.000007");
    assertThat(json.readValue(writtenRecord, AttemptRecord.class)).isEqualTo(record);
    assertThat(json.readValue(writtenResult, new TypeReference<ResilientExecutionResult<String>>() {}))
        .isEqualTo(result);
  }

  @Test
  void aDurationThatIsNotANumberOfMillisecondsIsRefused() {
    String iso = "{\"attemptNumber\":1,\"targetId\":\"a\",\"executionMode\":\"live\",\"startedAfter\":\"PT1S\","
        + "\"endedAfter\":1,\"timeout\":1,\"dispatchStarted\":false,\"outcome\":\"succeeded\","
        + "\"backoffBeforeNext\":0}";

    assertThatThrownBy(() -> json.readValue(iso, AttemptRecord.class)).isInstanceOf(JacksonException.class);
  }
}
