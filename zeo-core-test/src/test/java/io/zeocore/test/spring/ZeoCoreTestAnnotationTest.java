package io.zeocore.test.spring;

import static io.zeocore.test.ZeoCoreAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.test.VirtualTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/**
 * {@link ZeoCoreTest} on a Spring Boot application with the starter: the real targets are replaced by scripts of the
 * same ids, runs pass on virtual time, events are captured, and each test starts with empty scripts, no events and no
 * cooldowns (the second test would otherwise find the primary cooling from the first).
 */
@SpringBootTest(classes = ZeoCoreTestAnnotationTest.Application.class, properties = {
    "zeocore.execution.policies.answer.total-timeout=30s",
    "zeocore.execution.policies.answer.attempt-timeout=10s",
    "zeocore.execution.policies.answer.attempt-targets=primary,primary,fallback",
    "zeocore.execution.policies.answer.backoff=5s,5s"})
@ZeoCoreTest(scripted = {"primary", "fallback"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZeoCoreTestAnnotationTest {

  static final AtomicInteger REAL_CALLS = new AtomicInteger();

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Application {

    @Bean
    NamedTarget<String, String> primary() {
      return NamedTarget.of("primary", String.class, String.class, (input, context) -> {
        REAL_CALLS.incrementAndGet();
        return "the real primary";
      });
    }

    @Bean
    NamedTarget<String, String> fallback() {
      return NamedTarget.of("fallback", String.class, String.class, (input, context) -> {
        REAL_CALLS.incrementAndGet();
        return "the real fallback";
      });
    }
  }

  @Autowired
  ZeoCoreExecutions executions;

  @Autowired
  ScriptedTargets scripted;

  @Autowired
  CapturedEvents events;

  @Autowired
  VirtualTime time;

  @Autowired
  TargetHealth health;

  @Test
  @Order(1)
  void scriptedTargetsReplaceTheRealOnesAndTimeIsVirtual() {
    scripted.target("primary", String.class).failsWith(FailureKind.TIMEOUT).rateLimited(Duration.ofSeconds(60));
    scripted.target("fallback", String.class).answersAfter(Duration.ofSeconds(2), "scripted fallback");
    long realStart = System.nanoTime();

    ResilientExecutionResult<String> result = executions.run("answer", "question", String.class);

    assertThat(result).answeredBy("fallback").hasValue("scripted fallback")
        .tookPath("primary:timeout", "primary:rate_limit", "fallback:succeeded")
        .waited(Duration.ofSeconds(5), Duration.ofSeconds(5)) // the policy's backoff; the Retry-After cools the primary
        .tookExactly(Duration.ofSeconds(5 + 5 + 2));
    assertThat(Duration.ofNanos(System.nanoTime() - realStart)).isLessThan(Duration.ofSeconds(5));
    assertThat(REAL_CALLS).hasValue(0);
    assertThat(events.attempts()).extracting(AttemptRecordedEvent::attempt).containsExactlyElementsOf(
        result.attempts());
    assertThat(events.runs()).singleElement().satisfies(run -> assertThat(run.outcome())
        .isEqualTo(ExecutionOutcome.SUCCEEDED));
    assertThat(events.targetHealthChanges()).singleElement().satisfies(change ->
        assertThat(change.change().targetId()).isEqualTo("primary"));
    assertThat(health.states()).hasSize(1);
    assertThat(time.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(12));
  }

  @Test
  @Order(2)
  void eachTestStartsWithEmptyScriptsNoEventsAndNoCooldowns() {
    assertThat(events.all()).isEmpty();
    assertThat(health.states()).isEmpty();
    assertThat(scripted.target("primary", String.class).callCount()).isZero();
    scripted.target("primary", String.class).answers("scripted primary");

    assertThat(executions.run("answer", "question", String.class)).answeredBy("primary");
    assertThat(REAL_CALLS).hasValue(0);
  }

  @Test
  @Order(3)
  void aScriptForAnUnscriptedIdOrAnotherTypeIsRefusedWithTheReason() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> scripted.target("elsewhere", String.class))
        .hasMessageContaining("'elsewhere' is not scripted here");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> scripted.target("primary", Integer.class))
        .hasMessageContaining("answers java.lang.String, not java.lang.Integer");
  }
}
