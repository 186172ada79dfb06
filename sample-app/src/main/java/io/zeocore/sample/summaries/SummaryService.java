package io.zeocore.sample.summaries;

import io.zeocore.autoconfigure.subprocess.SubprocessProviders;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.llm.ChatMessage;
import io.zeocore.llm.LlmTargets;
import io.zeocore.llm.OllamaClient;
import io.zeocore.springai.SpringAiTargets;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Summarizes text through a YAML policy, the way an application uses ZeoCore: the policy (in {@code application.yml})
 * says which targets may run, in which order, with what budget; this service only says what each target is.
 *
 * <ul>
 *   <li>{@code ollama-local}: one chat call to the Ollama endpoint of {@code zeocore.llm.ollama} (absent on a fresh
 *       machine, so its connection is refused before anything is sent and the runner falls back);
 *   <li>{@code text-stats}: the subprocess provider of {@code zeocore.subprocess.providers.text-stats}, whose
 *       deadline the operating system enforces on its whole process tree;
 *   <li>{@code spring-ai-ollama}: with the {@code spring-ai} profile, one call to Spring AI's auto-configured
 *       {@code ChatModel} through {@link SpringAiTargets#textTarget} (Spring AI's own retries make one call inside
 *       the attempt).
 * </ul>
 */
@Service
public class SummaryService {

  private final ZeoCoreExecutions executions;
  private final SubprocessProviders providers;
  private final OllamaClient ollama;
  private final ObjectProvider<ChatModel> springAiModel;

  public SummaryService(ZeoCoreExecutions executions, SubprocessProviders providers, OllamaClient ollama,
      ObjectProvider<ChatModel> springAiModel) {
    this.executions = executions;
    this.providers = providers;
    this.ollama = ollama;
    this.springAiModel = springAiModel;
  }

  /** Runs {@code policy} over every target this service knows; the policy's plan picks which run. */
  public ResilientExecutionResult<String> summarize(String policy, String text) {
    List<ChatMessage> messages = List.of(
        ChatMessage.system("Summarize the user's text in one sentence."),
        ChatMessage.user(text));
    SyncExecutionTarget<String> llm = LlmTargets.chatTarget("ollama-local", ollama, messages);
    SyncExecutionTarget<String> local = providers.target("text-stats", text.getBytes(StandardCharsets.UTF_8),
        String.class, SummaryService::summaryLine);
    Map<String, SyncExecutionTarget<String>> targets = new LinkedHashMap<>();
    targets.put(llm.targetId(), llm);
    targets.put(local.targetId(), local);
    ChatModel model = springAiModel.getIfUnique();
    if (model != null) {
      Prompt prompt = new Prompt(List.of(new SystemMessage("Summarize the user's text in one sentence."),
          new UserMessage(text)));
      targets.put("spring-ai-ollama", SpringAiTargets.textTarget("spring-ai-ollama", model, prompt));
    }
    return executions.run(policy, targets);
  }

  private static String summaryLine(byte[] stdout) {
    String line = new String(stdout, StandardCharsets.UTF_8).strip();
    if (line.isEmpty() || line.contains("\n")) {
      throw new IllegalArgumentException("expected one line of summary");
    }
    return line;
  }
}
