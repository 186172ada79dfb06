package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExecutionPolicyTest {

  private static ExecutionPolicy.Builder valid() {
    return ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(120))
        .attemptTimeout(Duration.ofSeconds(90))
        .attemptTargets("ollama-local", "openai-api");
  }

  @Test
  void appliesTheReferenceDefaults() {
    ExecutionPolicy policy = valid().build();
    assertThat(policy.operationMode()).isEqualTo(OperationMode.READ_ONLY);
    assertThat(policy.backoff()).isEmpty();
    assertThat(policy.jitterFraction()).isZero();
    assertThat(policy.retryableFailures())
        .containsExactlyInAnyOrder(FailureKind.TIMEOUT, FailureKind.TRANSIENT, FailureKind.RATE_LIMIT);
    assertThat(policy.allowSimulated()).isFalse();
    assertThat(policy.cancellationPoll()).isEqualTo(Duration.ofMillis(100));
    assertThat(policy.maxAttempts()).isEqualTo(2);
  }

  @Test
  void backoffAfterReturnsConfiguredDelayOrZero() {
    ExecutionPolicy policy = valid().attemptTargets("a", "a", "b").backoff(Duration.ofMillis(500)).build();
    assertThat(policy.backoffAfter(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(policy.backoffAfter(2)).isEqualTo(Duration.ZERO);
    assertThat(policy.backoffAfter(0)).isEqualTo(Duration.ZERO);
    assertThat(policy.maxAttempts()).isEqualTo(3);
  }

  @Test
  void streamTimeoutsDefaultToTheAttemptTimeoutAndMustBePositiveWhenSet() {
    ExecutionPolicy derived = ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(10))
        .attemptTimeout(Duration.ofSeconds(3)).attemptTargets("a").build();
    assertThat(derived.firstChunkTimeout()).isNull();
    assertThat(derived.effectiveFirstChunkTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(derived.effectiveChunkIdleTimeout()).isEqualTo(Duration.ofSeconds(3));
    ExecutionPolicy set = derived.toBuilder().firstChunkTimeout(Duration.ofSeconds(1))
        .chunkIdleTimeout(Duration.ofMillis(500)).build();
    assertThat(set.effectiveFirstChunkTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(set.withName("renamed").effectiveChunkIdleTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThatThrownBy(() -> derived.toBuilder().chunkIdleTimeout(Duration.ZERO).build())
        .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("chunk_idle_timeout_seconds");
    assertThatThrownBy(() -> derived.toBuilder().firstChunkTimeout(Duration.ofSeconds(-1)).build())
        .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("first_chunk_timeout_seconds");
  }

  @Test
  void allowsDuplicateTargetsAsSameTargetRetries() {
    assertThat(valid().attemptTargets("a", "a", "a").build().attemptTargets()).containsExactly("a", "a", "a");
  }

  @Test
  void rejectsEmptyPlan() {
    assertThatThrownBy(() -> valid().attemptTargets().build())
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessage("attempt_targets must contain at least one target")
        .extracting(e -> ((InvalidPolicyException) e).field()).isEqualTo("attemptTargets");
  }

  @Test
  void rejectsUnsafeTargetIds() {
    for (String bad : Arrays.asList("", " a", "-a", "a b", "a;b", "x".repeat(129), null)) {
      assertThatThrownBy(() -> valid().attemptTargets(Arrays.asList("ok", bad)).build())
          .as("id %s", bad)
          .hasMessage("attempt target IDs must be non-empty safe identifiers");
    }
    assertThat(valid().attemptTargets("a", "x".repeat(128), "A0_.:/-z").build().maxAttempts()).isEqualTo(3);
  }

  @Test
  void rejectsNegativeBackoff() {
    assertThatThrownBy(() -> valid().backoff(Duration.ofMillis(-1)).build())
        .hasMessage("backoff_seconds cannot contain negative delays");
  }

  @Test
  void rejectsBackoffLongerThanTransitions() {
    assertThatThrownBy(() -> valid().backoff(Duration.ZERO, Duration.ZERO).build())
        .hasMessage("backoff_seconds cannot exceed the number of attempt transitions")
        .extracting(e -> ((InvalidPolicyException) e).field()).isEqualTo("backoff");
  }

  @Test
  void fieldChecksRunBeforeCrossFieldChecks() {
    // negative and too long at once: the sign (field check) is reported first
    assertThatThrownBy(() -> valid().backoff(Duration.ZERO, Duration.ofSeconds(-1), Duration.ZERO).build())
        .hasMessage("backoff_seconds cannot contain negative delays");
    // too long backoff and a forbidden retryable kind: backoff length is the first cross-field check
    assertThatThrownBy(() -> valid().backoff(Duration.ZERO, Duration.ZERO)
        .retryableFailures(FailureKind.PERMANENT).build())
        .hasMessage("backoff_seconds cannot exceed the number of attempt transitions");
  }

  @Test
  void rejectsNeverRetryableKindsSortedByWireValue() {
    assertThatThrownBy(() -> valid()
        .retryableFailures(FailureKind.PERMANENT, FailureKind.TIMEOUT, FailureKind.AUTHENTICATION).build())
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessage("failures can never be retryable: authentication, permanent");
  }

  @Test
  void allowsMalformedResponseAndAnEmptyRetryableSet() {
    assertThat(valid().retryableFailures(FailureKind.MALFORMED_RESPONSE).build().retryableFailures())
        .containsExactly(FailureKind.MALFORMED_RESPONSE);
    assertThat(valid().retryableFailures(Set.of()).build().retryableFailures()).isEmpty();
  }

  @Test
  void rejectsZeroNegativeAndMissingDurations() {
    assertThatThrownBy(() -> valid().totalTimeout(Duration.ZERO).build())
        .hasMessage("total_timeout_seconds must be greater than 0");
    assertThatThrownBy(() -> valid().attemptTimeout(Duration.ofMillis(-5)).build())
        .hasMessage("attempt_timeout_seconds must be greater than 0");
    assertThatThrownBy(() -> valid().totalTimeout(null).build())
        .hasMessage("total_timeout_seconds must not be null");
    assertThatThrownBy(() -> valid().cancellationPoll(Duration.ZERO).build())
        .hasMessage("cancellation_poll_seconds must be greater than 0");
  }

  @Test
  void rejectsNanAndOutOfRangeJitter() {
    for (double bad : new double[] {Double.NaN, -0.01, 1.01, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> valid().jitterFraction(bad).build())
          .hasMessage("jitter_fraction must be between 0 and 1");
    }
    assertThat(valid().jitterFraction(1).build().jitterFraction()).isEqualTo(1);
  }

  @Test
  void rejectsNullEntries() {
    assertThatThrownBy(() -> valid().backoff(Arrays.asList((Duration) null)).build())
        .hasMessage("backoff_seconds cannot contain null delays");
    assertThatThrownBy(() -> valid().retryableFailures(Arrays.asList(FailureKind.TIMEOUT, null)).build())
        .hasMessage("retryable_failures cannot contain null");
    assertThatThrownBy(() -> valid().operationMode(null).build())
        .hasMessage("operation_mode must not be null");
  }

  @Test
  void acceptsAttemptTimeoutLargerThanTotal() {
    assertThat(valid().attemptTimeout(Duration.ofHours(1)).build().attemptTimeout()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void isImmutable() {
    java.util.List<String> plan = new java.util.ArrayList<>(java.util.List.of("a"));
    ExecutionPolicy policy = valid().attemptTargets(plan).build();
    plan.add("b");
    assertThat(policy.attemptTargets()).containsExactly("a");
    assertThatThrownBy(() -> policy.attemptTargets().add("c")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> policy.retryableFailures().add(FailureKind.MALFORMED_RESPONSE))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(policy.toBuilder().build()).isEqualTo(policy);
  }

  @Test
  void parsesWireValuesLeniently() {
    assertThat(FailureKind.fromWireValue("rate_limit")).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(FailureKind.fromWireValue("RATE-LIMIT")).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(OperationMode.fromWireValue("read-only")).isEqualTo(OperationMode.READ_ONLY);
    assertThatThrownBy(() -> FailureKind.fromWireValue("flaky"))
        .hasMessageContaining("unknown FailureKind 'flaky'").hasMessageContaining("rate_limit");
  }

  @Test
  void keepsTheReferenceVocabulary() {
    assertThat(Arrays.stream(FailureKind.values()).map(FailureKind::wireValue)).containsExactly("timeout",
        "transient", "rate_limit", "malformed_response", "validation", "authorization", "authentication", "cancelled",
        "permanent");
    assertThat(Arrays.stream(FailureKind.values()).map(FailureKind::machineCode))
        .allMatch(code -> code.equals("ZEO_EXEC_" + code.substring(9)))
        .containsExactlyElementsOf(MachineCodes.ALL.subList(0, 9));
    assertThat(MachineCodes.ALL).hasSize(14).doesNotHaveDuplicates().allMatch(code -> code.startsWith("ZEO_EXEC_"));
    assertThat(FailureKind.NEVER_RETRYABLE).isEqualTo(EnumSet.of(FailureKind.VALIDATION, FailureKind.AUTHORIZATION,
        FailureKind.AUTHENTICATION, FailureKind.CANCELLED, FailureKind.PERMANENT));
    assertThat(Arrays.stream(ExecutionOutcome.values()).map(ExecutionOutcome::wireValue))
        .containsExactly("succeeded", "failed_safe", "exhausted", "cancelled", "refused");
    assertThat(Arrays.stream(ExecutionMode.values()).map(ExecutionMode::wireValue))
        .containsExactly("live", "simulated", "none");
    assertThat(Arrays.stream(OperationMode.values()).map(OperationMode::wireValue))
        .containsExactly("read_only", "advisory", "effectful");
  }

  @Test
  void unnamedCooperativeAndUnmappedByDefault() {
    ExecutionPolicy policy = valid().build();
    assertThat(policy.name()).isEqualTo(ExecutionPolicy.UNNAMED);
    assertThat(policy.deadline()).isEqualTo(DeadlineMode.COOPERATIVE);
    assertThat(policy.failureKinds()).isEmpty();
  }

  @Test
  void nameDeadlineAndFailureKindsSurviveToBuilderAndWithName() {
    ExecutionPolicy policy = valid().name("summarize").deadline(DeadlineMode.ENFORCED)
        .failureKind(java.io.IOException.class, FailureKind.TRANSIENT).build();
    assertThat(policy.toBuilder().build()).isEqualTo(policy);
    ExecutionPolicy renamed = policy.withName("other");
    assertThat(renamed.name()).isEqualTo("other");
    assertThat(renamed.toBuilder().name("summarize").build()).isEqualTo(policy);
    assertThat(DeadlineMode.fromWireValue("Enforced")).isEqualTo(DeadlineMode.ENFORCED);
  }

  @Test
  void blankNameAndNullMappingsAreRejected() {
    assertThatThrownBy(() -> valid().name(" ").build()).isInstanceOf(InvalidPolicyException.class);
    assertThatThrownBy(() -> valid().failureKind(java.io.IOException.class, null).build())
        .isInstanceOf(InvalidPolicyException.class);
  }
}
