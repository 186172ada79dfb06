package io.zeocore.capability;

import io.zeocore.EffectKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.OperationMode;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SettableCancellationToken;
import io.zeocore.execution.SyncExecutionTarget;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class CapabilityTargetsTest {

  record Lookup(String sku) {}

  record Stock(int units) {}

  private static final Lookup REQUEST = new Lookup("A-1");
  private static final String EFFECT_REFUSAL = "resilient capability adapters currently support exactly READ effects; "
      + "effectful execution requires persisted orchestration";

  private final ResilientRunner runner = ResilientRunner.builder().sleeper(delay -> { }).build();
  private final List<CapabilityContext> seen = new CopyOnWriteArrayList<>();

  private static BoundCapability.Builder<Lookup, Stock> stock(EffectKind... effects) {
    return BoundCapability.builder("inventory.stock", Lookup.class, Stock.class).effects(effects);
  }

  private BoundCapability<Lookup, Stock> reading(int units) {
    return stock(EffectKind.READ).handler((request, context) -> {
      seen.add(context);
      return new Stock(units);
    }).build();
  }

  private BoundCapability<Lookup, Stock> failingWith(CapabilityException failure) {
    return stock(EffectKind.READ).handler((request, context) -> {
      seen.add(context);
      throw failure;
    }).build();
  }

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(30))
        .attemptTimeout(Duration.ofSeconds(10))
        .attemptTargets(plan);
  }

  static Stream<Set<EffectKind>> effectfulDeclarations() {
    return Stream.of(
        EnumSet.of(EffectKind.WRITE),
        EnumSet.of(EffectKind.DELETE),
        EnumSet.of(EffectKind.EXTERNAL_COMMUNICATION),
        EnumSet.of(EffectKind.FINANCIAL),
        EnumSet.of(EffectKind.SECURITY_SENSITIVE),
        EnumSet.of(EffectKind.READ, EffectKind.WRITE),
        EnumSet.of(EffectKind.READ, EffectKind.EXTERNAL_COMMUNICATION),
        EnumSet.allOf(EffectKind.class));
  }

  @ParameterizedTest
  @MethodSource("effectfulDeclarations")
  void refusesEveryCapabilityThatIsNotExactlyReadAtConstruction(Set<EffectKind> effects) {
    BoundCapability<Lookup, Stock> capability = BoundCapability.builder("ledger.post", Lookup.class, Stock.class)
        .effects(effects)
        .handler((request, context) -> {
          throw new AssertionError("never invoked");
        })
        .build();

    assertThatThrownBy(() -> CapabilityTargets.sync("ledger", capability, REQUEST))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(EFFECT_REFUSAL);
    assertThatThrownBy(() -> CapabilityTargets.async("ledger", capability, REQUEST))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(EFFECT_REFUSAL);
  }

  @ParameterizedTest
  @EnumSource(value = OperationMode.class, names = {"READ_ONLY", "ADVISORY"})
  void aReadCapabilityRunsUnderReadOnlyAndAdvisoryPoliciesAndReturnsTheWholeResult(OperationMode mode) {
    SyncExecutionTarget<CapabilityResult<Stock>> target = CapabilityTargets.sync("stock", reading(12), REQUEST);

    ResilientExecutionResult<CapabilityResult<Stock>> result =
        runner.runSync(policy("stock").operationMode(mode).build(), Map.of("stock", target));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value().isSuccess()).isTrue();
    assertThat(result.value().value()).isEqualTo(new Stock(12));
    assertThat(target.responseType()).isEqualTo(CapabilityResult.class);
    assertThat(target.internalMaxAttempts()).isEqualTo(1);
  }

  @Test
  void anEffectfulPolicyIsRefusedByTheRunnerBeforeTheCapabilityRuns() {
    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runSync(
        policy("stock").operationMode(OperationMode.EFFECTFUL).build(),
        Map.of("stock", CapabilityTargets.sync("stock", reading(1), REQUEST)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.machineCode()).isEqualTo("ZEO_EXEC_EFFECTFUL_REQUIRES_PERSISTENCE");
    assertThat(seen).isEmpty();
  }

  @Test
  void eachAttemptSeesTheRunnersTokenAndTheAttemptTimeout() {
    SettableCancellationToken token = new SettableCancellationToken();

    runner.runSync(policy("stock").attemptTimeout(Duration.ofSeconds(7)).build(),
        Map.of("stock", CapabilityTargets.sync("stock", reading(1), REQUEST)), token);

    assertThat(seen).hasSize(1);
    CapabilityContext context = seen.get(0);
    assertThat(context.timeout()).hasValue(Duration.ofSeconds(7));
    assertThat(context.remaining().orElseThrow()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(7));
    assertThat(context.cancellation()).isSameAs(token);
  }

  @Test
  void aGuardRejectionIsAPreDispatchValidationFailureAndRefusesTheRun() {
    BoundCapability<Lookup, Stock> guarded = stock(EffectKind.READ)
        .guard((request, context) -> false)
        .handler((request, context) -> new Stock(1))
        .build();

    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runSync(policy("guarded", "fallback").build(),
        Map.of("guarded", CapabilityTargets.sync("guarded", guarded, REQUEST),
            "fallback", CapabilityTargets.sync("fallback", reading(2), REQUEST)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.VALIDATION);
    assertThat(result.attempts()).hasSize(1);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
    assertThat(seen).isEmpty();
  }

  @Test
  void theHandlerObservesTheRunnersCancellation() {
    SettableCancellationToken token = new SettableCancellationToken();
    BoundCapability<Lookup, Stock> patient = stock(EffectKind.READ).handler((request, context) -> {
      seen.add(context);
      // the host cancels once the handler is running, however loaded the machine is
      CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS).execute(token::cancel);
      while (!context.isCancelled()) {
        Thread.sleep(5);
      }
      throw CapabilityException.cancelled();
    }).build();

    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runSync(policy("stock", "stock").build(),
        Map.of("stock", CapabilityTargets.sync("stock", patient, REQUEST)), token);

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.attempts()).hasSize(1);
    AttemptRecord attempt = result.attempts().get(0);
    assertThat(attempt.failureKind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(attempt.dispatchStarted()).isTrue();
  }

  @Test
  void aTimedOutCapabilityFallsBackToTheNextTarget() {
    CompletableFuture<Stock> never = new CompletableFuture<>();
    BoundCapability<Lookup, Stock> hanging = stock(EffectKind.READ).asyncHandler((request, context) -> never).build();

    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runSync(
        policy("slow", "fast").attemptTimeout(Duration.ofMillis(200)).build(),
        Map.of("slow", CapabilityTargets.sync("slow", hanging, REQUEST),
            "fast", CapabilityTargets.sync("fast", reading(5), REQUEST)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("fast");
    AttemptRecord timedOut = result.attempts().get(0);
    assertThat(timedOut.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(timedOut.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(200)).isLessThan(Duration.ofSeconds(5));
    assertThat(never).isCancelled();
  }

  @Test
  void skippedOutcomesBeforeTheHandlerArePreDispatchPermanentFailures() {
    BoundCapability<Lookup, Stock> down = stock(EffectKind.READ)
        .availability(() -> false)
        .handler((request, context) -> new Stock(1))
        .build();

    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runSync(policy("stock").build(),
        Map.of("stock", CapabilityTargets.sync("stock", down, REQUEST)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.failureKind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
  }

  @Test
  void handlerFailuresArePermanentAfterDispatchAndEndFailedSafe() {
    for (CapabilityException failure : List.of(
        CapabilityException.integrationFailure(new IllegalStateException("CANARY")),
        CapabilityException.policySkipped(),
        CapabilityException.unavailable())) {
      ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runSync(policy("stock", "stock").build(),
          Map.of("stock", CapabilityTargets.sync("stock", failingWith(failure), REQUEST)));

      assertThat(result.outcome()).as(failure.outcome().wireValue()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
      assertThat(result.failureKind()).isEqualTo(FailureKind.PERMANENT);
      assertThat(result.attempts()).hasSize(1);
      assertThat(result.attempts().get(0).dispatchStarted()).isTrue();
      assertThat(result.toString() + result.attempts()).doesNotContain("CANARY");
    }
  }

  @Test
  void theAsyncTargetRunsAnAsyncCapabilityUnderTheAsyncRunner() {
    BoundCapability<Lookup, Stock> async = stock(EffectKind.READ)
        .asyncHandler((request, context) -> CompletableFuture.supplyAsync(() -> new Stock(21),
            CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)))
        .build();
    AsyncExecutionTarget<CapabilityResult<Stock>> target = CapabilityTargets.async("stock", async, REQUEST);

    ResilientExecutionResult<CapabilityResult<Stock>> result =
        runner.runAsync(policy("stock").build(), Map.of("stock", target)).join();

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value().value()).isEqualTo(new Stock(21));
    assertThat(target.internalMaxAttempts()).isEqualTo(1);
  }

  @Test
  void theAsyncRunnersAttemptTimeoutCancelsTheHandlersStage() {
    CompletableFuture<Stock> never = new CompletableFuture<>();
    BoundCapability<Lookup, Stock> hanging = stock(EffectKind.READ).asyncHandler((request, context) -> {
      seen.add(context);
      return never;
    }).build();

    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runAsync(
        policy("slow", "fast").attemptTimeout(Duration.ofMillis(150)).build(),
        Map.of("slow", CapabilityTargets.async("slow", hanging, REQUEST),
            "fast", CapabilityTargets.async("fast", reading(3), REQUEST))).join();

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("fast");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(never).isCancelled();
    assertThat(seen.get(0).timeout()).hasValue(Duration.ofMillis(150));
  }

  @Test
  void theAsyncTargetMapsAGuardRejectionToARefusal() {
    BoundCapability<Lookup, Stock> guarded = stock(EffectKind.READ)
        .guard((request, context) -> false)
        .asyncHandler((request, context) -> CompletableFuture.completedFuture(new Stock(1)))
        .build();

    ResilientExecutionResult<CapabilityResult<Stock>> result = runner.runAsync(policy("stock").build(),
        Map.of("stock", CapabilityTargets.async("stock", guarded, REQUEST))).join();

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.failureKind()).isEqualTo(FailureKind.VALIDATION);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
  }

  @Test
  void effectKindsHaveTheReferencesLowercaseWireValues() {
    assertThat(Stream.of(EffectKind.values()).map(EffectKind::wireValue)).containsExactly(
        "read", "write", "delete", "external_communication", "financial", "security_sensitive");
    assertThat(EffectKind.fromWireValue("external_communication")).isEqualTo(EffectKind.EXTERNAL_COMMUNICATION);
    assertThat(Stream.of(EffectKind.values()).filter(kind -> !kind.isEffectful())).containsExactly(EffectKind.READ);
    assertThatThrownBy(() -> EffectKind.fromWireValue("execute")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void outcomesAreWrittenAndReadAsTheirLowercaseWireValues() {
    JsonMapper json = JsonMapper.builder().build();

    assertThat(json.writeValueAsString(List.of(CapabilityOutcome.GUARD_REJECTED, CapabilityOutcome.SUCCEEDED)))
        .isEqualTo("[\"guard_rejected\",\"succeeded\"]");
    assertThat(json.readValue("\"timed_out\"", CapabilityOutcome.class)).isEqualTo(CapabilityOutcome.TIMED_OUT);
    assertThat(CapabilityOutcome.fromWireValue("POLICY_SKIPPED")).isEqualTo(CapabilityOutcome.POLICY_SKIPPED);
    assertThat(CapabilityOutcome.GUARD_REJECTED.code()).isEqualTo("ZEO_CAP_GUARD_REJECTED");
    assertThatThrownBy(() -> CapabilityOutcome.fromWireValue("skipped"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("policy_skipped");
  }
}
