package io.zeocore.classpath;

import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.OperationMode;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.springai.AttemptRecordingResponseErrorHandler;
import io.zeocore.springai.Conversation;
import io.zeocore.springai.PlanEvidence;
import io.zeocore.springai.PolicyChatModel;
import io.zeocore.springai.SpringAiRetries;
import io.zeocore.springai.SpringAiTargets;
import java.time.Duration;
import java.util.Map;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.ollama.OllamaChatModel;
import org.springframework.ai.ollama.api.OllamaApi;
import org.springframework.ai.ollama.api.OllamaChatOptions;
import org.springframework.ai.retry.RetryUtils;

/**
 * On zeo-spring-ai's class path and the application's Spring AI Ollama model alone: a plan of two Spring AI chat
 * targets on loopback servers, the first answering 500 (Spring AI's retries made one call), the second answering.
 */
public final class SpringAiProgram {

  private static final String ANSWER =
      "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"two words\"},\"done\":true}";

  private SpringAiProgram() {}

  public static void main(String[] args) throws Exception {
    SpringAiRetries.scopeSpringAiDefaultTemplates();
    try (LoopbackHttp failing = new LoopbackHttp("/api/chat", Integer.MAX_VALUE, ANSWER);
        LoopbackHttp answering = new LoopbackHttp("/api/chat", 0, ANSWER)) {
      ExecutionPolicy policy = ExecutionPolicy.builder()
          .operationMode(OperationMode.READ_ONLY)
          .totalTimeout(Duration.ofSeconds(60))
          .attemptTimeout(Duration.ofSeconds(20))
          .attemptTargets("ollama-a", "ollama-b")
          .build();
      Prompt prompt = new Prompt("Hello ZeoCore");

      ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy, Map.of(
          "ollama-a", SpringAiTargets.textTarget("ollama-a", ollama(failing), prompt),
          "ollama-b", SpringAiTargets.textTarget("ollama-b", ollama(answering), prompt)));

      Checks.require(result.outcome() == ExecutionOutcome.SUCCEEDED, "outcome " + result.outcome());
      Checks.require("ollama-b".equals(result.selectedTargetId()), "answered by " + result.selectedTargetId());
      Checks.require("two words".equals(result.value()), "value");

      // the same plan as a ChatModel, inside a conversation bound: no ChatClient on this class path
      PolicyChatModel assistant = PolicyChatModel.builder().policy(policy.withName("assistant"))
          .model("ollama-a", ollama(failing)).model("ollama-b", ollama(answering)).build();
      ChatResponse answer = Conversation.within(Duration.ofSeconds(60), 2, () -> assistant.call(prompt));
      Checks.require("ollama-b".equals(PlanEvidence.of(answer).orElseThrow().selectedTargetId()), "plan evidence");
      System.out.println("ok: a Spring AI chat plan fell back from ollama-a to ollama-b, as targets and as a model");
    }
  }

  private static ChatModel ollama(LoopbackHttp server) {
    return OllamaChatModel.builder()
        .ollamaApi(OllamaApi.builder().baseUrl(server.baseUrl().toString())
            .responseErrorHandler(new AttemptRecordingResponseErrorHandler(RetryUtils.DEFAULT_RESPONSE_ERROR_HANDLER))
            .build())
        .options(OllamaChatOptions.builder().model("m").build())
        .build();
  }
}
