package io.zeocore.autoconfigure.execution;

import static io.zeocore.autoconfigure.execution.PolicyFailureAnalyses.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.validation.UnknownConfigurationKeysException;
import io.zeocore.autoconfigure.validation.ZeoCoreConfigurationKeysAutoConfiguration;
import io.zeocore.execution.ExecutionPolicies;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code exponential-backoff: {initial, multiplier, max}} is expanded at start-up into the explicit backoff list, one
 * delay per attempt transition, in policies and in the configs they inherit from, with the same reports as any other
 * broken rule.
 */
class ExponentialBackoffTests {

  private static final String P = "zeocore.execution.policies.";
  private static final String C = "zeocore.execution.configs.";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreConfigurationKeysAutoConfiguration.class,
          ZeoCoreExecutionAutoConfiguration.class))
      .withPropertyValues(C + "default.total-timeout=30s", C + "default.attempt-timeout=5s",
          C + "default.targets=call-time");

  @Test
  void initial200msMultiplier2Max1sOverFiveAttemptsExpandsToFourDelays() {
    contextRunner.withPropertyValues(P + "p.attempt-targets=a,a,a,b,b", P + "p.exponential-backoff.initial=200ms",
        P + "p.exponential-backoff.multiplier=2", P + "p.exponential-backoff.max=1s")
        .run(context -> assertThat(context.getBean(ExecutionPolicies.class).get("p").backoff()).containsExactly(
            Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800), Duration.ofSeconds(1)));
  }

  @Test
  void theMultiplierDefaultsToTwoAndWithoutMaxNothingIsCapped() {
    contextRunner.withPropertyValues(P + "p.attempt-targets=a,a,a,a", P + "p.exponential-backoff.initial=1s")
        .run(context -> assertThat(context.getBean(ExecutionPolicies.class).get("p").backoff())
            .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4)));
  }

  @Test
  void aFractionalMultiplierAndAMultiplierOfOne() {
    contextRunner.withPropertyValues(P + "p.attempt-targets=a,a,a,a", P + "p.exponential-backoff.initial=100ms",
        P + "p.exponential-backoff.multiplier=1.5", P + "fixed.attempt-targets=a,a,a",
        P + "fixed.exponential-backoff.initial=250ms", P + "fixed.exponential-backoff.multiplier=1")
        .run(context -> {
          ExecutionPolicies policies = context.getBean(ExecutionPolicies.class);
          assertThat(policies.get("p").backoff()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(150),
              Duration.ofMillis(225));
          assertThat(policies.get("fixed").backoff()).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
        });
  }

  @Test
  void aSingleAttemptPlanHasNoDelay() {
    contextRunner.withPropertyValues(P + "p.attempt-targets=a", P + "p.exponential-backoff.initial=200ms")
        .run(context -> assertThat(context.getBean(ExecutionPolicies.class).get("p").backoff()).isEmpty());
  }

  @Test
  void aRuleInAConfigIsExpandedForEachPolicyToItsOwnPlanAndANearerFormWins() {
    contextRunner.withPropertyValues(C + "default.exponential-backoff.initial=100ms",
        C + "default.exponential-backoff.max=300ms", P + "two.attempt-targets=a,b",
        P + "five.attempt-targets=a,b,c,d,e", P + "listed.attempt-targets=a,b,c", P + "listed.backoff=1s",
        C + "listed.backoff=2s,3s", P + "ruled.base-config=listed", P + "ruled.attempt-targets=a,b,c",
        P + "ruled.exponential-backoff.initial=50ms")
        .run(context -> {
          ExecutionPolicies policies = context.getBean(ExecutionPolicies.class);
          assertThat(policies.get("two").backoff()).containsExactly(Duration.ofMillis(100));
          assertThat(policies.get("five").backoff()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
              Duration.ofMillis(300), Duration.ofMillis(300));
          assertThat(policies.get("listed").backoff()).containsExactly(Duration.ofSeconds(1));
          assertThat(policies.get("ruled").backoff()).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100));
        });
  }

  @Test
  void bothFormsOnOnePolicyStopStartUpNamingTheRuleAndWhatWasWritten() {
    assertFailure(contextRunner.withPropertyValues(P + "p.attempt-targets=a,b", P + "p.backoff=100ms",
            P + "p.exponential-backoff.initial=200ms", P + "p.exponential-backoff.multiplier=3"),
        "ZeoCore execution policy 'p' is invalid", "Property: zeocore.execution.policies.p.exponential-backoff",
        "Value: \"{initial=200ms, multiplier=3}\"",
        "Rule: backoff and exponential-backoff are both set on zeocore.execution.policies.p; set one of them");
  }

  @Test
  void bothFormsInAConfigStopStartUpEvenWhenNoPolicyUsesIt() {
    assertFailure(contextRunner.withPropertyValues(C + "unused.backoff=1s",
            C + "unused.exponential-backoff.initial=1s"),
        "A ZeoCore execution config is invalid", "Property: zeocore.execution.configs.unused.exponential-backoff",
        "backoff and exponential-backoff are both set on zeocore.execution.configs.unused");
  }

  @Test
  void aRuleWithoutInitialStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.attempt-targets=a,b", P + "p.exponential-backoff.max=1s"),
        "Property: zeocore.execution.policies.p.exponential-backoff.initial", "Value: (not set)",
        "Rule: exponential-backoff needs initial");
  }

  @Test
  void aZeroInitialStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.attempt-targets=a,b",
            P + "p.exponential-backoff.initial=0ms"),
        "Property: zeocore.execution.policies.p.exponential-backoff.initial", "Value: \"0ms\"",
        "Rule: initial must be greater than zero");
  }

  @Test
  void aMultiplierBelowOneStopsStartUp() {
    assertFailure(contextRunner.withPropertyValues(P + "p.attempt-targets=a,b",
            P + "p.exponential-backoff.initial=1s", P + "p.exponential-backoff.multiplier=0.5"),
        "Property: zeocore.execution.policies.p.exponential-backoff.multiplier", "Value: \"0.5\"",
        "Rule: multiplier must be a number of at least 1");
  }

  @Test
  void aMaxBelowInitialInAnInheritedConfigIsReportedWhereItIsWritten() {
    assertFailure(contextRunner.withPropertyValues(C + "slow.exponential-backoff.initial=2s",
            C + "slow.exponential-backoff.max=500ms", P + "p.base-config=slow", P + "p.attempt-targets=a,b"),
        "Property: zeocore.execution.configs.slow.exponential-backoff.max", "Value: \"500ms\"",
        "Rule: max must be at least initial (2s)");
  }

  @Test
  void aMisspelledKeyOfTheRuleIsRefusedWithTheKeyMeant() {
    contextRunner.withPropertyValues(P + "p.attempt-targets=a,b", P + "p.exponential-backoff.intial=200ms")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).isInstanceOfSatisfying(UnknownConfigurationKeysException.class,
              failure -> assertThat(failure.keys()).singleElement().satisfies(key -> {
                assertThat(key.key()).isEqualTo(P + "p.exponential-backoff.intial");
                assertThat(key.suggestion()).isEqualTo(P + "p.exponential-backoff.initial");
              }));
        });
  }

}
