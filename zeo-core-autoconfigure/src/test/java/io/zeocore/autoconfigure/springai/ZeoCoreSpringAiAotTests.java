package io.zeocore.autoconfigure.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.llm.LoopbackServer;
import io.zeocore.springai.PolicyChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.ollama.autoconfigure.OllamaApiAutoConfiguration;
import org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.retry.autoconfigure.SpringAiRetryAutoConfiguration;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;

/**
 * The Spring AI chat targets through Spring AOT: the context is processed ahead of time, the generated code is
 * compiled, and a fresh context started from it (as {@code -Dspring.aot.enabled=true} or a native image start an
 * application) has the targets, once, and runs a policy through them against a loopback Ollama, as targets and as a
 * policy-backed {@code ChatModel}.
 */
class ZeoCoreSpringAiAotTests {

  @RegisterExtension
  final LoopbackServer ollama = LoopbackServer.forEachTest();

  private String[] properties() {
    return new String[] {"spring.ai.ollama.base-url=" + ollama.baseUrl(), "spring.ai.ollama.chat.model=m",
        "zeocore.execution.configs.default.total-timeout=60s",
        "zeocore.execution.configs.default.attempt-timeout=10s",
        "zeocore.execution.policies.summarize.operation-mode=read-only",
        "zeocore.execution.policies.summarize.attempt-targets=ollama",
        "zeocore.spring-ai.models.assistant.policy=summarize"};
  }

  @Test
  @CompileWithForkedClassLoader
  void chatModelTargetsAreRegisteredOnceWhenTheApplicationStartsFromAotGeneratedCode() {
    ollama.replies(LoopbackServer.ollamaReply("from ollama"));
    ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SpringAiRetryAutoConfiguration.class,
            ToolCallingAutoConfiguration.class, OllamaApiAutoConfiguration.class, OllamaChatAutoConfiguration.class,
            ZeoCoreSpringAiAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class))
        .withPropertyValues(properties());

    runner.prepare(prepared -> {
      TestGenerationContext generation = new TestGenerationContext(ZeoCoreSpringAiAotTests.class);
      ClassName initializer = new ApplicationContextAotGenerator().processAheadOfTime(
          prepared.getSourceApplicationContext(GenericApplicationContext.class), generation);
      generation.writeGeneratedContent();

      TestCompiler.forSystem().with(generation).compile(compiled -> {
        try (GenericApplicationContext started = new GenericApplicationContext()) {
          started.setAllowBeanDefinitionOverriding(false); // as Spring Boot starts applications
          TestPropertyValues.of(properties()).applyTo(started);
          @SuppressWarnings("unchecked")
          ApplicationContextInitializer<GenericApplicationContext> generated =
              compiled.getInstance(ApplicationContextInitializer.class, initializer.toString());
          generated.initialize(started);
          started.refresh();

          assertThat(started.getBeansOfType(SpringAiChatTargetRegistrar.class)).isEmpty();
          assertThat(started.getBean(TargetRegistry.class).ids()).containsExactly("ollama");
          ResilientExecutionResult<ChatResponse> result = started.getBean(ZeoCoreExecutions.class)
              .run("summarize", new Prompt("Summarize the ticket."), ChatResponse.class);
          assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
          assertThat(result.attempts()).extracting(AttemptRecord::targetId).containsExactly("ollama");
          assertThat(result.value().getResult().getOutput().getText()).isEqualTo("from ollama");
          PolicyChatModel assistant = started.getBean("assistant", PolicyChatModel.class);
          assertThat(assistant.call(new Prompt("Again.")).getResult().getOutput().getText()).isEqualTo("from ollama");
        }
      });
    });
    assertThat(ollama.requests()).hasSize(2);
  }
}
