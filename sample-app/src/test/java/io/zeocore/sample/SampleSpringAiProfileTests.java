package io.zeocore.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.sample.summaries.SummaryService;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The sample's Spring AI path ({@code spring-ai} profile): Spring AI's auto-configured Ollama model is the summarize
 * policy's first target; with no Ollama running (port 9 refuses) the attempt fails before anything is sent and the
 * subprocess provider answers. Nothing is installed or reached outside this machine.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {"spring.ai.ollama.base-url=http://127.0.0.1:9", "zeocore.llm.ollama.base-url=http://127.0.0.1:9",
        "sample.data-dir=target/sample-spring-ai-data"})
@ActiveProfiles("spring-ai")
class SampleSpringAiProfileTests {

  @Autowired
  SummaryService summaries;

  @Autowired
  ChatModel springAiModel;

  @Autowired
  StartupGuide guide;

  @Test
  void startupGuidePrintsThePlanOfTheActiveProfile() {
    assertThat(guide.lines()).anyMatch(line -> line.startsWith("Policy 'summarize' plans [spring-ai-ollama, text-stats]"));
  }

  @Test
  void springAiModelIsPlannedFirstAndFallsBackToTheSubprocessProvider() {
    ResilientExecutionResult<String> result = summaries.summarize("summarize", "Hello ZeoCore through Spring AI");

    assertThat(springAiModel.getClass().getSimpleName()).isEqualTo("OllamaChatModel");
    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.selectedTargetId()).isEqualTo("text-stats");
    assertThat(result.attempts()).extracting(AttemptRecord::targetId).containsExactly("spring-ai-ollama",
        "text-stats");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
  }
}
