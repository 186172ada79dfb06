package io.zeocore.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.ExecutionFailedException;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.llm.LoopbackServer;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.ollama.OllamaChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.tool.annotation.Tool;
import tools.jackson.databind.JsonNode;

/**
 * A {@link PolicyChatModel} under Spring AI's real {@code ChatClient}, advisors and tool loop, over Spring AI's real
 * Ollama and OpenAI models talking to loopback servers that count the requests.
 */
class PolicyChatModelTest {

  private static final String CANARY = "canary-provider-text-7d31";

  @RegisterExtension
  final LoopbackServer ollamaServer = LoopbackServer.forEachTest();
  @RegisterExtension
  final LoopbackServer openAiServer = LoopbackServer.forEachTest();

  private static OllamaChatModel ollama(URI baseUrl) {
    return SpringAiModels.ollama(baseUrl, "llama-m");
  }

  /** An OpenAI model whose SDK makes one request per call. */
  private static OpenAiChatModel openAi(URI baseUrl) {
    return SpringAiModels.openAi(baseUrl, "gpt-m", 0);
  }

  private PolicyChatModel assistant(Duration attemptTimeout) {
    ExecutionPolicy policy = ExecutionPolicy.builder().name("ask")
        .totalTimeout(Duration.ofSeconds(60)).attemptTimeout(attemptTimeout)
        .attemptTargets("ollama", "openai").backoff(Duration.ofMillis(10))
        .build();
    return PolicyChatModel.builder()
        .runner(ResilientRunner.create())
        .policy(policy)
        .model("ollama", ollama(ollamaServer.baseUrl()))
        .model("openai", openAi(openAiServer.baseUrl()))
        .build();
  }

  private PolicyChatModel assistant() {
    return assistant(Duration.ofSeconds(20));
  }

  /** Ollama asking for {@code tool} (with a tool-call id, as Ollama sends, which an OpenAI fallback needs). */
  private static LoopbackServer.Reply ollamaToolCall(String tool, String argumentsJson) {
    return LoopbackServer.status(200, "{\"model\":\"llama-m\",\"done\":true,\"message\":{\"role\":\"assistant\","
        + "\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\",\"function\":{\"name\":\"" + tool
        + "\",\"arguments\":" + argumentsJson + "}}]}}");
  }

  @Test
  void chatClientFallsBackFromAFailingProviderToTheNextWithOneRequestPerAttempt() {
    ollamaServer.replies(LoopbackServer.status(503, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.openAiReply("from openai"));

    ChatResponse response = ChatClient.builder(assistant()).build()
        .prompt().system("Answer briefly.").user("Summarize the ticket.").call().chatResponse();

    assertThat(response.getResult().getOutput().getText()).isEqualTo("from openai");
    PlanEvidence evidence = PlanEvidence.of(response).orElseThrow();
    assertThat(evidence.policy()).isEqualTo("ask");
    assertThat(evidence.executionId()).startsWith("exec-");
    assertThat(evidence.selectedTargetId()).isEqualTo("openai");
    assertThat(evidence.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(evidence.attempts()).extracting(record -> record.targetId() + ":" + record.outcome())
        .containsExactly("ollama:" + AttemptOutcome.FAILED, "openai:" + AttemptOutcome.SUCCEEDED);
    assertThat(evidence.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(evidence.toString()).doesNotContain(CANARY);
    assertThat(ollamaServer.requests()).hasSize(1);
    assertThat(openAiServer.requests()).hasSize(1);
    JsonNode sent = openAiServer.onlyRequest().json();
    assertThat(sent.path("messages").get(0).path("content").asString()).isEqualTo("Answer briefly.");
    assertThat(sent.path("messages").get(1).path("content").asString()).isEqualTo("Summarize the ticket.");
  }

  record Ticket(String title, int severity) {}

  @Test
  void anEntityResultComesFromWhicheverTargetAnswers() {
    ollamaServer.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.openAiReply("{\"title\":\"Printer on fire\",\"severity\":3}"));

    Ticket ticket = ChatClient.create(assistant()).prompt().user("Classify: the printer is on fire.").call()
        .entity(Ticket.class);

    assertThat(ticket).isEqualTo(new Ticket("Printer on fire", 3));
  }

  @Test
  void perCallPortableOptionsReachTheTargetThatRunsWhileEachTargetKeepsItsOwnModel() {
    ollamaServer.replies(LoopbackServer.status(500, "{}"), LoopbackServer.ollamaReply("from ollama"));
    openAiServer.replies(LoopbackServer.openAiReply("from openai"));
    ChatClient client = ChatClient.create(assistant());
    ChatOptions.Builder<?> options = ChatOptions.builder().model("the-callers-model").temperature(0.25).maxTokens(42);

    client.prompt().options(options).user("first").call().content();
    client.prompt().options(options).user("second").call().content();

    JsonNode toOpenAi = openAiServer.onlyRequest().json();
    assertThat(toOpenAi.path("model").asString()).isEqualTo("gpt-m");
    assertThat(toOpenAi.path("temperature").asDouble()).isEqualTo(0.25);
    assertThat(toOpenAi.path("max_completion_tokens").asInt(toOpenAi.path("max_tokens").asInt())).isEqualTo(42);
    JsonNode toOllama = ollamaServer.requests().get(1).json();
    assertThat(toOllama.path("model").asString()).isEqualTo("llama-m");
    assertThat(toOllama.path("options").path("temperature").asDouble()).isEqualTo(0.25);
    assertThat(toOllama.path("options").path("num_predict").asInt()).isEqualTo(42);
  }

  @Test
  void aMemoryAdvisorSeesOneConversationWhicheverTargetAnswered() {
    ollamaServer.replies(LoopbackServer.ollamaReply("Hello Ada."), LoopbackServer.status(503, "{}"));
    openAiServer.replies(LoopbackServer.openAiReply("Your name is Ada."));
    ChatMemory memory = MessageWindowChatMemory.builder().build();
    ChatClient client = ChatClient.builder(assistant())
        .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build())
        .build();

    client.prompt().user("My name is Ada.").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "ada")).call()
        .content();
    String answer = client.prompt().user("What is my name?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "ada"))
        .call().content();

    assertThat(answer).isEqualTo("Your name is Ada.");
    JsonNode messages = openAiServer.onlyRequest().json().path("messages");
    assertThat(messages).extracting(message -> message.path("content").asString())
        .containsExactly("My name is Ada.", "Hello Ada.", "What is my name?");
    assertThat(memory.get("ada")).hasSize(4);
  }

  /** A tool the model may ask for; counts how often it ran. */
  static final class Inventory {

    final AtomicInteger calls = new AtomicInteger();

    @Tool(description = "How many units of a product are in stock")
    int unitsInStock(String product) {
      calls.incrementAndGet();
      return 7;
    }
  }

  @Test
  void aToolTheModelAskedForRunsOnceWhenTheNextModelRequestFallsBack() {
    ollamaServer.replies(ollamaToolCall("unitsInStock", "{\"product\":\"toner\"}"),
        LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.openAiReply("7 units of toner are in stock."));
    Inventory inventory = new Inventory();

    String answer = ChatClient.create(assistant()).prompt().user("How much toner is left?").tools(inventory).call()
        .content();

    assertThat(answer).isEqualTo("7 units of toner are in stock.");
    assertThat(inventory.calls).hasValue(1);
    assertThat(ollamaServer.requests()).hasSize(2);
    assertThat(openAiServer.requests()).hasSize(1);
    JsonNode messages = openAiServer.onlyRequest().json().path("messages");
    assertThat(messages.get(messages.size() - 1).path("role").asString()).isEqualTo("tool");
    assertThat(messages.get(messages.size() - 1).path("content").asString()).isEqualTo("7");
    assertThat(openAiServer.onlyRequest().json().path("tools")).isNotEmpty();
  }

  @Test
  void aRunThatDoesNotSucceedThrowsTheResultWithoutProviderText() {
    ollamaServer.replies(LoopbackServer.status(500, "{\"error\":\"" + CANARY + "\"}"));
    openAiServer.replies(LoopbackServer.status(401, "{\"error\":{\"message\":\"" + CANARY + "\"}}"));

    ExecutionFailedException failure = catchFailure(() -> ChatClient.create(assistant()).prompt().user("hi").call()
        .content());

    assertThat(failure.policyName()).isEqualTo("ask");
    assertThat(failure.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(failure.failureKind()).isEqualTo(FailureKind.AUTHENTICATION);
    assertThat(failure.machineCode()).isEqualTo(MachineCodes.AUTHENTICATION);
    assertThat(failure.attempts()).hasSize(2);
    assertThat(failure.executionId()).startsWith("exec-");
    assertThat(failure).hasMessage("ZeoCore execution " + failure.executionId()
        + " of policy 'ask' ended failed_safe: authentication (ZEO_EXEC_AUTHENTICATION) after 2 attempts");
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      assertThat(String.valueOf(cause.getMessage())).doesNotContain(CANARY);
    }
  }

  @Test
  void theConversationBoundStopsTheToolLoopAtItsMaximumOfModelRequests() {
    ollamaServer.replies(ollamaToolCall("unitsInStock", "{\"product\":\"toner\"}"));
    Inventory inventory = new Inventory();
    ChatClient client = ChatClient.builder(assistant())
        .defaultAdvisors(ConversationBoundAdvisor.of(Duration.ofMinutes(1), 3))
        .build();

    ExecutionFailedException failure = catchFailure(() -> client.prompt().user("loop").tools(inventory).call()
        .content());

    assertThat(failure.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(failure.machineCode()).isEqualTo(Conversation.LIMIT_REACHED);
    assertThat(failure.attempts()).isEmpty();
    assertThat(ollamaServer.requests()).as("three model requests reached the provider").hasSize(3);
    assertThat(openAiServer.requests()).isEmpty();
    assertThat(inventory.calls).hasValue(3);
  }

  @Test
  void theConversationDeadlineCutsTheRunThatOutlivesIt() {
    ollamaServer.replies(ollamaServer.hang());
    openAiServer.replies(openAiServer.hang());
    ChatClient client = ChatClient.builder(assistant(Duration.ofSeconds(30)))
        .defaultAdvisors(ConversationBoundAdvisor.of(Duration.ofMillis(600), 10))
        .build();
    long started = System.nanoTime();

    ExecutionFailedException failure = catchFailure(() -> client.prompt().user("hang").call().content());

    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("ends at the conversation's deadline, not the "
        + "policy's 60 s or the attempt's 30 s").isLessThan(Duration.ofSeconds(20));
    assertThat(failure.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(failure.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(openAiServer.requests()).as("no time was left for the fallback").isEmpty();
  }

  @Test
  void aPlanMustNameAChatModelForEveryTargetAndPlansDoNotNest() {
    ExecutionPolicy policy = ExecutionPolicy.builder().name("ask").totalTimeout(Duration.ofSeconds(5))
        .attemptTimeout(Duration.ofSeconds(5)).attemptTargets("ollama", "openai").build();

    assertThatIllegalArgumentException().isThrownBy(() -> PolicyChatModel.builder().policy(policy)
        .model("ollama", ollama(ollamaServer.baseUrl())).build()).withMessageContaining("'openai'");
    assertThatIllegalArgumentException().isThrownBy(() -> PolicyChatModel.builder().model("inner", assistant()))
        .withMessageContaining("plans do not nest");
  }

  private static LoopbackServer.Reply ollamaReplyWithUsage(String content, int promptTokens, int answerTokens) {
    return LoopbackServer.status(200, "{\"model\":\"llama-m\",\"done\":true,\"prompt_eval_count\":" + promptTokens
        + ",\"eval_count\":" + answerTokens + ",\"message\":{\"role\":\"assistant\",\"content\":\"" + content
        + "\"}}");
  }

  private static LoopbackServer.Reply openAiReplyWithUsage(String content, int promptTokens, int answerTokens) {
    return LoopbackServer.status(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
        + "\"model\":\"gpt-m-2026\",\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":"
        + "\"assistant\",\"content\":\"" + content + "\"}}],\"usage\":{\"prompt_tokens\":" + promptTokens
        + ",\"completion_tokens\":" + answerTokens + ",\"total_tokens\":" + (promptTokens + answerTokens) + "}}");
  }

  @Test
  void eachAttemptRecordsTheTokensAndModelsTheProviderReported() {
    ollamaServer.replies(LoopbackServer.status(503, "{}"));
    openAiServer.replies(openAiReplyWithUsage("from openai", 21, 4));

    ChatResponse response = ChatClient.create(assistant()).prompt().user("hi").call().chatResponse();

    PlanEvidence evidence = PlanEvidence.of(response).orElseThrow();
    assertThat(evidence.attempts().get(0).usage()).as("a failed request reported nothing").isNull();
    assertThat(evidence.attempts().get(1).usage())
        .isEqualTo(new io.zeocore.execution.ModelUsage("openai", "gpt-m", "gpt-m-2026", 21L, 4L));
  }

  @Test
  void theTokenBudgetStopsTheToolLoopBeforeTheRequestThatWouldExceedIt() {
    ollamaServer.replies(LoopbackServer.status(200, "{\"model\":\"llama-m\",\"done\":true,\"prompt_eval_count\":15,"
        + "\"eval_count\":10,\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":"
        + "\"call_1\",\"function\":{\"name\":\"unitsInStock\",\"arguments\":{\"product\":\"toner\"}}}]}}"),
        ollamaReplyWithUsage("never asked", 1, 1));
    ExecutionPolicy policy = ExecutionPolicy.builder().name("ask").totalTimeout(Duration.ofSeconds(60))
        .attemptTimeout(Duration.ofSeconds(20)).attemptTargets("ollama").maxTokens(20L).build();
    PolicyChatModel budgeted = PolicyChatModel.builder().policy(policy)
        .model("ollama", ollama(ollamaServer.baseUrl())).build();
    ChatClient client = ChatClient.builder(budgeted)
        .defaultAdvisors(ConversationBoundAdvisor.of(Duration.ofMinutes(1), 10)).build();

    ExecutionFailedException failure = catchFailure(() -> client.prompt().user("loop").tools(new Inventory()).call()
        .content());

    assertThat(failure.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
    assertThat(failure.machineCode()).isEqualTo(MachineCodes.BUDGET_EXHAUSTED);
    assertThat(ollamaServer.requests()).as("25 tokens spent by the first request; no second").hasSize(1);
  }

  private static ExecutionFailedException catchFailure(Runnable call) {
    return assertThatExceptionOfType(ExecutionFailedException.class).isThrownBy(call::run).actual();
  }
}
