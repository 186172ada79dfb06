package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every result carries its run's execution id ({@code exec-<uuid>}, the id its listeners, events, observations and
 * MDC get), and {@link ResilientExecutionResult#orElseThrow()} turns a result that did not succeed into a typed
 * exception holding codes and ids only.
 */
class ExecutionIdAndExceptionTest {

  private static final String CANARY = "canary-7c2e-provider-said-sk-live-secret";

  private final List<String> idsSeenByListeners = new CopyOnWriteArrayList<>();
  private final ResilientRunner runner = ResilientRunner.builder().listener(new AttemptListener() {
    @Override
    public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {}

    @Override
    public AttemptListener forRun(ExecutionPolicy policy, String executionId) {
      idsSeenByListeners.add(executionId);
      return this;
    }
  }).build();

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder().name("summarize").totalTimeout(Duration.ofSeconds(10))
        .attemptTimeout(Duration.ofSeconds(5)).attemptTargets(plan);
  }

  private static SyncExecutionTarget<String> answers(String id) {
    return SyncExecutionTarget.of(id, String.class, context -> "answer");
  }

  private static SyncExecutionTarget<String> fails(String id, FailureKind kind) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      throw new AttemptError(kind, true, null, new IllegalStateException(CANARY));
    });
  }

  private static void assertExecutionIdForm(String id) {
    assertThat(id).startsWith("exec-").hasSize(41);
    assertThat(UUID.fromString(id.substring(5)).version()).isEqualTo(4);
    assertThat(id.substring(5)).isEqualTo(UUID.fromString(id.substring(5)).toString());
  }

  @Test
  void everyResultCarriesTheExecutionIdItsListenersWereGiven() throws Exception {
    ResilientExecutionResult<String> succeeded = runner.runSync(policy("primary").build(),
        Map.of("primary", answers("primary")));
    ResilientExecutionResult<String> refused = runner.runSync(policy("missing").build(), Map.of());
    ResilientExecutionResult<String> async = runner.runAsync(policy("primary").build(), Map.of("primary",
        AsyncExecutionTarget.of("primary", String.class, context -> CompletableFuture.completedFuture("answer"))))
        .get();

    assertThat(List.of(succeeded.executionId(), refused.executionId(), async.executionId()))
        .containsExactlyElementsOf(idsSeenByListeners)
        .allSatisfy(ExecutionIdAndExceptionTest::assertExecutionIdForm);
    assertThat(refused.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(succeeded.toString()).contains(succeeded.executionId());
  }

  @Test
  void aRunnerWithoutListenersStillGivesEveryResultAnIdAndNoTwoRunsShareOne() {
    ResilientRunner bare = ResilientRunner.create();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      ids.add(bare.runSync(policy("primary").build(), Map.of("primary", answers("primary"))).executionId());
    }

    assertThat(ids).hasSize(1_000).allSatisfy(ExecutionIdAndExceptionTest::assertExecutionIdForm);
  }

  @Test
  void orElseThrowReturnsTheValueOfASuccessfulRun() {
    assertThat(runner.runSync(policy("primary").build(), Map.of("primary", answers("primary"))).orElseThrow())
        .isEqualTo("answer");
  }

  @Test
  void orElseThrowThrowsTheOutcomeCodesIdAndAttemptsButNoProviderText() {
    ResilientExecutionResult<String> result = runner.runSync(policy("primary", "secondary").build(), Map.of(
        "primary", fails("primary", FailureKind.TIMEOUT),
        "secondary", fails("secondary", FailureKind.TIMEOUT)));

    ExecutionFailedException failed = catchThrowableOfType(ExecutionFailedException.class, result::orElseThrow);

    assertThat(failed.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(failed.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(failed.machineCode()).isEqualTo(MachineCodes.TIMEOUT);
    assertThat(failed.executionId()).isEqualTo(result.executionId());
    assertThat(failed.attempts()).isEqualTo(result.attempts()).hasSize(2);
    assertThat(failed.getMessage()).isEqualTo("ZeoCore execution " + result.executionId()
        + " ended exhausted: timeout (ZEO_EXEC_TIMEOUT) after 2 attempts");
    assertThat(failed.getCause()).isNull();
    assertThat(failed.toString()).doesNotContain(CANARY);
  }

  @Test
  void aRefusalNamesItsCodeAndTheRefusedTarget() {
    ResilientExecutionResult<String> refused = runner.runSync(policy("missing").build(), Map.of());

    assertThatThrownBy(refused::orElseThrow)
        .isInstanceOfSatisfying(ExecutionFailedException.class, failed -> {
          assertThat(failed.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
          assertThat(failed.failureKind()).isNull();
          assertThat(failed.refusedTargetId()).isEqualTo("missing");
        })
        .hasMessage("ZeoCore execution " + refused.executionId()
            + " ended refused: ZEO_EXEC_TARGET_UNAVAILABLE for planned target 'missing' after 0 attempts");
  }

  @Test
  void aSuccessfulResultIsNotAFailure() {
    ResilientExecutionResult<String> succeeded = runner.runSync(policy("primary").build(),
        Map.of("primary", answers("primary")));

    assertThatThrownBy(() -> new ExecutionFailedException(succeeded)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theExceptionSerializesWithoutTheValue() throws Exception {
    ResilientExecutionResult<String> result = runner.runSync(policy("primary").build(),
        Map.of("primary", fails("primary", FailureKind.PERMANENT)));
    ExecutionFailedException failed = catchThrowableOfType(ExecutionFailedException.class, result::orElseThrow);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(failed);
    }

    assertThat(bytes.toString(java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain(CANARY);
  }

  @Test
  void theExecutionIdIsPartOfTheWireFormatAndReadBack() {
    JsonMapper json = JsonMapper.builder().build();
    ResilientExecutionResult<String> result = runner.runSync(policy("primary", "secondary").build(), Map.of(
        "primary", fails("primary", FailureKind.TRANSIENT), "secondary", answers("secondary")));

    String written = json.writeValueAsString(result);

    assertThat(written).contains("\"executionId\":\"" + result.executionId() + "\"").doesNotContain(CANARY);
    assertThat(json.readValue(written, new TypeReference<ResilientExecutionResult<String>>() {})).isEqualTo(result);
  }
}
