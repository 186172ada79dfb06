package io.zeocore.autoconfigure.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.subprocess.SubprocessProviders;
import io.zeocore.autoconfigure.subprocess.ZeoCoreSubprocessAutoConfiguration;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The targets a policy plans are known at start-up: its ids must be registered targets (NamedTarget beans, Spring AI
 * chat targets, subprocess providers) unless the policy says {@code targets: call-time}.
 */
class PlannedTargetsAtStartUpTests {

  private static final String P = "zeocore.execution.policies.";
  private static final String C = "zeocore.execution.configs.";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
          ZeoCoreSubprocessAutoConfiguration.class))
      .withUserConfiguration(OllamaTarget.class)
      .withPropertyValues(C + "default.total-timeout=10s", C + "default.attempt-timeout=5s",
          "zeocore.subprocess.providers.text-stats.argv=/bin/cat");

  @Test
  void aTypoOfASubprocessProviderStopsStartUpNamingThePropertyTheIdAndTheNearestId() {
    contextRunner.withPropertyValues(P + "summarize.attempt-targets[0]=ollama-local",
        P + "summarize.attempt-targets[1]=text-stat").run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = new InvalidExecutionPolicyFailureAnalyzer().analyze(context.getStartupFailure());
          assertThat(analysis).isNotNull();
          assertThat(analysis.getDescription()).contains("ZeoCore execution policy 'summarize' is invalid",
              "Property: zeocore.execution.policies.summarize.attempt-targets",
              "Value: \"[ollama-local, text-stat]\"",
              "Rule: no registered target has the id 'text-stat'; did you mean 'text-stats'? "
                  + "(registered: ollama-local, text-stats)",
              "set zeocore.execution.policies.summarize.targets: call-time");
        });
  }

  @Test
  void aPlanOfRegisteredTargetsAndSubprocessProvidersStarts() {
    contextRunner.withPropertyValues(P + "summarize.attempt-targets=ollama-local,text-stats").run(context -> {
      assertThat(context).hasNotFailed();
      SyncExecutionTarget<String> textStats = context.getBean(SubprocessProviders.class).target("text-stats",
          "a provider's answer".getBytes(StandardCharsets.UTF_8), String.class,
          stdout -> new String(stdout, StandardCharsets.UTF_8));
      SyncExecutionTarget<String> ollamaDown = SyncExecutionTarget.of("ollama-local", String.class, attempt -> {
        throw new java.net.ConnectException("connection refused");
      });
      ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class).run("summarize",
          List.of(ollamaDown, textStats));
      assertThat(result.value()).isEqualTo("a provider's answer");
    });
  }

  @Test
  void aCallTimePolicyStartsAndRunsTheTargetsPassedToEachRun() {
    contextRunner.withPropertyValues(P + "quotes.attempt-targets=primary,backup", P + "quotes.targets=call-time")
        .run(context -> {
          assertThat(context).hasNotFailed();
          AtomicInteger primaryCalls = new AtomicInteger();
          SyncExecutionTarget<String> primary = SyncExecutionTarget.of("primary", String.class, attempt -> {
            primaryCalls.incrementAndGet();
            throw new java.net.ConnectException("connection refused");
          });
          SyncExecutionTarget<String> backup = SyncExecutionTarget.of("backup", String.class, attempt -> "quote");
          ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class).run("quotes",
              Map.of("primary", primary, "backup", backup));
          assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
          assertThat(result.value()).isEqualTo("quote");
          assertThat(primaryCalls).hasValue(1);
        });
  }

  @Test
  void targetsIsInheritedFromAConfigAndAnInheritedPlanIsReportedWhereItIsWritten() {
    contextRunner.withPropertyValues(C + "fallbacks.targets=call-time", C + "fallbacks.attempt-targets=x,y",
        P + "passed.base-config=fallbacks").run(context -> assertThat(context).hasNotFailed());
    contextRunner.withPropertyValues(C + "shared.attempt-targets=ollama-local,olama-local",
        P + "p.base-config=shared").run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = new InvalidExecutionPolicyFailureAnalyzer().analyze(context.getStartupFailure());
          assertThat(analysis).isNotNull();
          assertThat(analysis.getDescription()).contains("ZeoCore execution policy 'p' is invalid",
              "Property: zeocore.execution.configs.shared.attempt-targets",
              "no registered target has the id 'olama-local'; did you mean 'ollama-local'?");
        });
  }

  @Test
  void aPolicyCanSayRegisteredExplicitlyOverACallTimeConfig() {
    contextRunner.withPropertyValues(C + "default.targets=call-time", P + "p.attempt-targets=nowhere",
        P + "p.targets=registered").run(context -> {
          assertThat(context).hasFailed();
          assertThat(new InvalidExecutionPolicyFailureAnalyzer().analyze(context.getStartupFailure())
              .getDescription()).contains("no registered target has the id 'nowhere' (registered: ollama-local, "
                  + "text-stats)");
        });
  }

  @Test
  void severalUnknownIdsAreEachNamedWithTheirNearestId() {
    contextRunner.withPropertyValues(P + "p.attempt-targets=olama-local,text-stat,elsewhere").run(context ->
        assertThat(new InvalidExecutionPolicyFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
            .contains("no registered target has the id 'olama-local', 'text-stat', 'elsewhere'; did you mean "
                + "'ollama-local' for 'olama-local', 'text-stats' for 'text-stat'?"));
  }

  @Test
  void policiesOfTheApplicationsOwnPoliciesBeanPlanningNoRegisteredIdAreNotChecked() {
    contextRunner.withBean(ExecutionPolicies.class, () -> ExecutionPolicies.of(Map.of("own",
            ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(1)).attemptTimeout(Duration.ofSeconds(1))
                .attemptTargets("passed-per-call").build())))
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Configuration(proxyBeanMethods = false)
  static class OllamaTarget {

    @Bean
    NamedTarget<String, String> ollamaLocal() {
      return NamedTarget.of("ollama-local", String.class, String.class, (text, context) -> text);
    }
  }
}
