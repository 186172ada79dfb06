package io.zeocore.autoconfigure.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.execution.InvalidExecutionPolicyPropertyException;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.llm.LoopbackServer;
import io.zeocore.springai.SpringAiRetries;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.ollama.autoconfigure.OllamaApiAutoConfiguration;
import org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration;
import org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.retry.autoconfigure.SpringAiRetryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.retry.RetryTemplate;

/**
 * The starter with Spring AI's own auto-configured Ollama and OpenAI models (real clients, real loopback servers
 * speaking their wire protocols) and Spring AI's retry settings left at their defaults: the models are planned by id
 * from YAML, and every attempt is exactly one HTTP request.
 */
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

    runner("ollama,openai").run(context -> {
      ResilientExecutionResult<ChatResponse> result = context.getBean(ZeoCoreExecutions.class)
          .run("summarize", PROMPT, ChatResponse.class);

      assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
      assertThat(result.attempts().get(0).backoffBeforeNext()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
      assertThat(result.selectedTargetId()).isEqualTo("openai");
    });
    assertThat(ollama.requests()).hasSize(1);
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
