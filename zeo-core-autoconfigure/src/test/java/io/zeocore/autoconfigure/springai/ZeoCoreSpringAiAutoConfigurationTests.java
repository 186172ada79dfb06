package io.zeocore.autoconfigure.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.autoconfigure.execution.InvalidExecutionPolicyPropertyException;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.autoconfigure.metrics.ZeoCoreExecutionMetrics;
import io.zeocore.autoconfigure.metrics.ZeoCoreMetricsAutoConfiguration;
import io.zeocore.autoconfigure.observation.ZeoCoreObservationAutoConfiguration;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ModelUsage;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.llm.LoopbackServer;
import io.zeocore.springai.PlanEvidence;
import io.zeocore.springai.PolicyChatModel;
import io.zeocore.springai.SpringAiRetries;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.ollama.autoconfigure.OllamaApiAutoConfiguration;
import org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration;
import org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.retry.autoconfigure.SpringAiRetryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.event.EventListener;
import org.springframework.core.retry.RetryTemplate;

/**
 * The starter with Spring AI's own auto-configured Ollama and OpenAI models (real clients, real loopback servers
 * speaking their wire protocols) and Spring AI's retry settings left at their defaults: the models are planned by id
 * from YAML, and every attempt is exactly one HTTP request.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZeoCoreSpringAiAutoConfigurationTests {

  private static final Prompt PROMPT = new Prompt("Summarize the ticket.");
  private static final String CANARY = "CANARY-provider-text-51c9";

  @RegisterExtension
  final LoopbackServer ollama = LoopbackServer.forEachTest();
  @RegisterExtension
  final LoopbackServer openAi = LoopbackServer.forEachTest();

  private ApplicationContextRunner runner(String plan) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SpringAiRetryAutoConfiguration.class,
            ToolCallingAutoConfiguration.class, OllamaApiAutoConfiguration.class, OllamaChatAutoConfiguration.class,
            OpenAiChatAutoConfiguration.class, ZeoCoreSpringAiAutoConfiguration.class,
            ZeoCoreExecutionAutoConfiguration.class))
        .withPropertyValues(
            "spring.ai.ollama.base-url=" + ollama.baseUrl(),
            "spring.ai.ollama.chat.model=m",
            "spring.ai.openai.base-url=" + openAi.baseUrl() + "/v1",
            "spring.ai.openai.api-key=test-key",
            "spring.ai.openai.chat.model=m",
            "zeocore.execution.configs.default.total-timeout=60s",
            "zeocore.execution.configs.default.attempt-timeout=10s",
            "zeocore.execution.policies.summarize.operation-mode=read-only",
            "zeocore.execution.policies.summarize.attempt-targets=" + plan,
            "zeocore.execution.policies.summarize.backoff=" + String.join(",",
                java.util.Collections.nCopies(plan.split(",").length - 1, "10ms")));
  }

  @Test
  void chatModelBeansAreTargetsThatYamlPlansByIdAndFallBackWithOneRequestEach() {
    ollama.replies(LoopbackServer.status(503, "{\"error\":\"" + CANARY + "\"}"));
    openAi.replies(LoopbackServer.openAiReply("from openai"));

    runner("ollama,openai").run(context -> {
      assertThat(context.getBean(TargetRegistry.class).ids()).contains("ollama", "openai");

      ResilientExecutionResult<ChatResponse> result = context.getBean(ZeoCoreExecutions.class)
          .run("summarize", PROMPT, ChatResponse.class);

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(result.selectedTargetId()).isEqualTo("openai");
      assertThat(result.value().getResult().getOutput().getText()).isEqualTo("from openai");
      assertThat(result.attempts()).extracting(AttemptRecord::failureKind).containsExactly(FailureKind.TRANSIENT,
          null);
      assertThat(result.toString()).doesNotContain(CANARY);
    });
    assertThat(ollama.requests()).hasSize(1);
    assertThat(openAi.requests()).hasSize(1);
  }

  @Test
  void aPrimaryPolicyModelIsTheChatModelOfTheAutoConfiguredChatClientAndFallsBackAcrossProviders() {
    ollama.replies(LoopbackServer.status(503, "{\"error\":\"" + CANARY + "\"}"));
    openAi.replies(LoopbackServer.openAiReply("from openai"));

    runner("ollama,openai")
        .withConfiguration(AutoConfigurations.of(ChatClientAutoConfiguration.class))
        .withPropertyValues("zeocore.spring-ai.models.assistant.policy=summarize",
            "zeocore.spring-ai.models.assistant.primary=true")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean("assistant")).isInstanceOf(PolicyChatModel.class);
          assertThat(context.getBean(TargetRegistry.class).ids()).doesNotContain("assistant");

          ChatResponse response = context.getBean(ChatClient.Builder.class).build().prompt().user("hi").call()
              .chatResponse();

          assertThat(response.getResult().getOutput().getText()).isEqualTo("from openai");
          assertThat(PlanEvidence.of(response).orElseThrow().selectedTargetId()).isEqualTo("openai");
        });
    assertThat(ollama.requests()).hasSize(1);
    assertThat(openAi.requests()).hasSize(1);
  }

  /** Every ZeoCore event an application would receive. */
  static final class Received {

    final List<Object> events = new CopyOnWriteArrayList<>();

    @EventListener
    void on(AttemptRecordedEvent event) {
      events.add(event);
    }

    @EventListener
    void on(ExecutionCompletedEvent event) {
      events.add(event);
    }
  }

  @Test
  void throughChatClientTokenFiguresReachRecordsAndMetersAndNoProviderTextReachesEventsOrLogs(
      CapturedOutput output) {
    ollama.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAi.replies(LoopbackServer.status(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,"
        + "\"model\":\"m\",\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":\"assistant\","
        + "\"content\":\"" + CANARY + " answered\"}}],\"usage\":{\"prompt_tokens\":13,\"completion_tokens\":6,"
        + "\"total_tokens\":19}}"));
    SimpleMeterRegistry meters = new SimpleMeterRegistry();

    runner("ollama,openai")
        .withConfiguration(AutoConfigurations.of(ChatClientAutoConfiguration.class,
            ZeoCoreMetricsAutoConfiguration.class))
        .withBean(MeterRegistry.class, () -> meters)
        .withBean(Received.class, Received::new)
        .withPropertyValues("zeocore.spring-ai.models.assistant.policy=summarize",
            "zeocore.spring-ai.models.assistant.primary=true", "logging.level.io.zeocore=debug")
        .run(context -> {
          ChatResponse response = context.getBean(ChatClient.Builder.class).build().prompt().user("hi").call()
              .chatResponse();

          PlanEvidence evidence = PlanEvidence.of(response).orElseThrow();
          assertThat(evidence.attempts().get(1).usage()).isEqualTo(new ModelUsage("openai", "m", "m", 13L, 6L));
          assertThat(evidence.toString()).doesNotContain(CANARY);
          List<Object> events = context.getBean(Received.class).events;
          assertThat(events).hasSize(3);
          assertThat(events).allSatisfy(event -> assertThat(event.toString()).doesNotContain(CANARY));
        });
    assertThat(meters.get(ZeoCoreExecutionMetrics.TOKENS).tags("target", "openai", "gen_ai.token.type", "input")
        .summary().totalAmount()).isEqualTo(13);
    assertThat(meters.get(ZeoCoreExecutionMetrics.TOKENS).tags("target", "openai", "gen_ai.token.type", "output")
        .summary().totalAmount()).isEqualTo(6);
    assertThat(output).doesNotContain(CANARY);
  }

  @Test
  void aPolicyModelWhosePolicyPlansNoChatTargetStopsStartUpNamingTheProperty() {
    runner("ollama,openai")
        .withPropertyValues("zeocore.execution.policies.other.attempt-targets=somewhere-else",
            "zeocore.execution.policies.other.targets=call-time",
            "zeocore.spring-ai.models.assistant.policy=other")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageContaining("zeocore.spring-ai.models.assistant.policy")
            .hasMessageContaining("'somewhere-else', which is no chat-model target"));
  }

  @Test
  void tokenFiguresOnRecordsMetersAndObservationsAreWhatTheProviderReported() {
    ollama.replies(LoopbackServer.status(503, "{}"));
    openAi.replies(LoopbackServer.status(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,"
        + "\"model\":\"m-2026\",\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":"
        + "\"assistant\",\"content\":\"from openai\"}}],\"usage\":{\"prompt_tokens\":21,\"completion_tokens\":4,"
        + "\"total_tokens\":25}}"));
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    TestObservationRegistry observations = TestObservationRegistry.create();

    runner("ollama,openai")
        .withConfiguration(AutoConfigurations.of(ZeoCoreMetricsAutoConfiguration.class,
            ZeoCoreObservationAutoConfiguration.class))
        .withBean(MeterRegistry.class, () -> meters)
        .withBean(ObservationRegistry.class, () -> observations)
        .run(context -> {
          ResilientExecutionResult<ChatResponse> result = context.getBean(ZeoCoreExecutions.class)
              .run("summarize", PROMPT, ChatResponse.class);

          assertThat(result.attempts().get(0).usage()).isNull();
          assertThat(result.attempts().get(1).usage()).isEqualTo(new ModelUsage("openai", "m", "m-2026", 21L, 4L));
          assertThat(result.tokens()).isEqualTo(25);
        });
    assertThat(meters.get(ZeoCoreExecutionMetrics.TOKENS).tags("target", "openai", "gen_ai.token.type", "input")
        .summary().totalAmount()).isEqualTo(21);
    assertThat(meters.get(ZeoCoreExecutionMetrics.TOKENS).tags("target", "openai", "gen_ai.token.type", "output")
        .summary().count()).isEqualTo(1);
    assertThat(meters.find(ZeoCoreExecutionMetrics.TOKENS).tags("target", "ollama").summaries()).isEmpty();
    TestObservationRegistryAssert.assertThat(observations).hasAnObservation(attempt -> attempt
        .hasNameEqualTo("zeocore.execution.attempt")
        .hasLowCardinalityKeyValue("target", "openai")
        .hasLowCardinalityKeyValue("gen_ai.provider.name", "openai")
        .hasLowCardinalityKeyValue("gen_ai.response.model", "m-2026")
        .hasHighCardinalityKeyValue("gen_ai.usage.input_tokens", "21")
        .hasHighCardinalityKeyValue("gen_ai.usage.output_tokens", "4"));
  }

  @Test
  void aPolicysTokenBudgetComesFromYamlAndMustBePositive() {
    runner("ollama,openai").withPropertyValues("zeocore.execution.policies.summarize.budget.max-tokens=500")
        .run(context -> assertThat(context.getBean(ExecutionPolicies.class).get("summarize").maxTokens())
            .isEqualTo(500L));
    runner("ollama,openai").withPropertyValues("zeocore.execution.policies.summarize.budget.max-tokens=0")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageContaining("zeocore.execution.policies.summarize.budget.max-tokens")
            .hasMessageContaining("must be greater than 0"));
  }

  @Test
  void springAiRetriesLeftAtTheirDefaultsMakeExactlyOneRequestPerAttempt() {
    ollama.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAi.replies(LoopbackServer.status(500, "{\"error\":{\"message\":\"" + CANARY + "\"}}"));

    runner("ollama,openai,ollama,openai").run(context -> {
      // Spring AI's template keeps its configuration (spring.ai.retry.max-attempts=10) for calls outside ZeoCore
      assertThat(SpringAiRetries.isOneCallInsideZeoCoreAttempts(context.getBean(RetryTemplate.class))).isTrue();

      ResilientExecutionResult<ChatResponse> result = context.getBean(ZeoCoreExecutions.class)
          .run("summarize", PROMPT, ChatResponse.class);

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
      assertThat(result.attempts()).hasSize(4);
    });
    assertThat(ollama.requests()).hasSize(2);
    assertThat(openAi.requests()).hasSize(2);
  }

  @Test
  void ollamaRateLimitCarriesItsRetryAfterThroughTheRecordingErrorHandler() {
    ollama.replies(LoopbackServer.status(429, "{\"error\":\"" + CANARY + "\"}", Map.of("Retry-After", "1")));
    openAi.replies(LoopbackServer.openAiReply("from openai"));

    runner("ollama,openai").withPropertyValues("zeocore.execution.target-health.enabled=false").run(context -> {
      ResilientExecutionResult<ChatResponse> result = context.getBean(ZeoCoreExecutions.class)
          .run("summarize", PROMPT, ChatResponse.class);

      assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
      assertThat(result.attempts().get(0).backoffBeforeNext()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
      assertThat(result.selectedTargetId()).isEqualTo("openai");
    });
    assertThat(ollama.requests()).hasSize(1);
  }

  @Test
  void ollamaRateLimitCoolsTheModelForItsRetryAfterSoTheNextRunSkipsItAndNoRunWaits() {
    ollama.replies(LoopbackServer.status(429, "{\"error\":\"" + CANARY + "\"}", Map.of("Retry-After", "30")));
    openAi.replies(LoopbackServer.openAiReply("from openai"), LoopbackServer.openAiReply("again"));

    runner("ollama,openai").run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
      ResilientExecutionResult<ChatResponse> first = executions.run("summarize", PROMPT, ChatResponse.class);
      assertThat(first.attempts().get(0).failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
      assertThat(first.attempts().get(0).backoffBeforeNext()).as("the policy's own backoff, not the Retry-After: "
          + "the cooldown keeps ollama from calls instead").isLessThan(Duration.ofSeconds(1));
      assertThat(context.getBean(TargetHealth.class).states()).singleElement().satisfies(state -> {
        assertThat(state.targetId()).isEqualTo("ollama");
        assertThat(state.coolingLeft()).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
      });

      ResilientExecutionResult<ChatResponse> second = executions.run("summarize", PROMPT, ChatResponse.class);
      assertThat(second.attempts().get(0).outcome()).isEqualTo(AttemptOutcome.SKIPPED);
      assertThat(second.selectedTargetId()).isEqualTo("openai");
    });
    assertThat(ollama.requests()).hasSize(1);
    assertThat(openAi.requests()).hasSize(2);
  }

  @Test
  void configuredChatTargetsChooseIdsAndLabels() {
    ollama.replies(LoopbackServer.ollamaReply("scripted"));

    runner("local")
        .withPropertyValues("zeocore.spring-ai.chat-targets.local.model=ollamaChatModel",
            "zeocore.spring-ai.chat-targets.local.execution-mode=simulated",
            "zeocore.execution.policies.summarize.allow-simulated=true")
        .run(context -> {
          assertThat(context.getBean(TargetRegistry.class).ids()).containsExactly("local");
          ResilientExecutionResult<ChatResponse> result = context.getBean(ZeoCoreExecutions.class)
              .run("summarize", PROMPT, ChatResponse.class);
          assertThat(result.executionMode()).isEqualTo(ExecutionMode.SIMULATED);
        });
  }

  @Test
  void aChatTargetNamingNoChatModelBeanFailsStartUpNamingTheProperty() {
    runner("local")
        .withPropertyValues("zeocore.spring-ai.chat-targets.local.model=noSuchModel")
        .run(context -> assertThat(context).hasFailed().getFailure()
            .rootCause().hasMessageContaining("zeocore.spring-ai.chat-targets.local.model"));
  }

  @Test
  void aPlanNamingAChatTargetThatDoesNotExistStopsStartUpWithTheNearestChatTarget() {
    runner("ollama,opanai").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOfSatisfying(InvalidExecutionPolicyPropertyException.class, invalid -> {
            assertThat(invalid.property()).isEqualTo("zeocore.execution.policies.summarize.attempt-targets");
            assertThat(invalid.rule()).startsWith("no registered target has the id 'opanai'; did you mean 'openai'? "
                + "(registered: ollama, openai)");
          });
    });
  }

  @Test
  void switchedOffItRegistersNothing() {
    // without its chat targets the application would pass its own to each run
    runner("ollama").withPropertyValues("zeocore.spring-ai.enabled=false",
            "zeocore.execution.policies.summarize.targets=call-time")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(TargetRegistry.class).ids()).isEmpty();
        });
  }

  @Test
  void theRunnerClassifiesSpringAiExceptionsThrownByTheApplicationsOwnTargets() {
    runner("ollama").run(context -> {
      io.zeocore.execution.ExceptionClassifier classifier =
          context.getBean(io.zeocore.execution.ExceptionClassifier.class);
      assertThat(classifier.classify(new org.springframework.ai.retry.NonTransientAiException(
          "HTTP 429 - " + CANARY)).kind()).isEqualTo(FailureKind.RATE_LIMIT);
      assertThat(classifier.classify(new org.springframework.ai.retry.TransientAiException(CANARY)).kind())
          .isEqualTo(FailureKind.TRANSIENT);
      assertThat(classifier.classify(new java.net.ConnectException()).dispatchStarted()).isFalse();
    });
  }

  @Test
  void targetIdsComeFromBeanNames() {
    assertThat(SpringAiChatTargetRegistrar.targetId("ollamaChatModel")).isEqualTo("ollama");
    assertThat(SpringAiChatTargetRegistrar.targetId("openAiChatModel")).isEqualTo("openai");
    assertThat(SpringAiChatTargetRegistrar.targetId("myModel")).isEqualTo("mymodel");
  }
}
