package io.zeocore.classpath;

import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.OperationMode;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.TargetRegistry;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.llm.ChatMessage;
import io.zeocore.llm.LlmTargets;
import io.zeocore.llm.OllamaClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * On zeo-core's class path alone: a named policy run with registered targets, the first failing and the second a
 * one-attempt Ollama client on a loopback server (its JSON through the runner's own Jackson).
 */
public final class RunnerProgram {

  private RunnerProgram() {}

  public static void main(String[] args) throws Exception {
    try (LoopbackHttp ollama = new LoopbackHttp("/api/chat", 0,
        "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"two words\"},\"done\":true}")) {
      OllamaClient client = OllamaClient.builder().baseUrl(ollama.baseUrl()).model("m").build();
      ExecutionPolicy policy = ExecutionPolicy.builder()
          .operationMode(OperationMode.READ_ONLY)
          .totalTimeout(Duration.ofSeconds(30))
          .attemptTimeout(Duration.ofSeconds(10))
          .attemptTargets("primary", "ollama")
          .backoff(Duration.ofMillis(10))
          .build();
      TargetRegistry targets = TargetRegistry.of(List.of(
          NamedTarget.of("primary", String.class, String.class, (text, context) -> {
            throw new AttemptError(FailureKind.TRANSIENT);
          }),
          NamedTarget.of("ollama", String.class, String.class, (text, context) ->
              LlmTargets.chatTarget("ollama", client, List.of(ChatMessage.user(text))).invocation().invoke(context))));
      ZeoCoreExecutions executions = new ZeoCoreExecutions(ResilientRunner.create(),
          ExecutionPolicies.of(Map.of("summarize", policy)), targets);

      ResilientExecutionResult<String> result = executions.run("summarize", "Hello ZeoCore", String.class);

      Checks.require(result.outcome() == ExecutionOutcome.SUCCEEDED, "outcome " + result.outcome());
      Checks.require("ollama".equals(result.selectedTargetId()), "answered by " + result.selectedTargetId());
      Checks.require(result.attempts().size() == 2, "attempts " + result.attempts().size());
      Checks.require("two words".equals(result.value()), "value");
      System.out.println("ok: summarize fell back from primary to ollama");
    }
  }
}
