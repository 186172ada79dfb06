package io.zeocore.benchmarks;

import com.sun.net.httpserver.HttpServer;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.springai.AttemptRecordingResponseErrorHandler;
import io.zeocore.springai.PolicyChatModel;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.ollama.OllamaChatModel;
import org.springframework.ai.ollama.api.OllamaApi;
import org.springframework.ai.ollama.api.OllamaChatOptions;
import org.springframework.ai.retry.RetryUtils;

/**
 * Item 7: the overhead of a {@link PolicyChatModel} over a direct {@code ChatModel.call} of the same Spring AI Ollama
 * model, against a loopback server (the JDK's {@code HttpServer}) that answers at once: {@code direct} is the floor
 * (one HTTP request through Spring AI), {@code policy} runs a one-target plan over the same model (the plan, the
 * attempt scope and watchdog, the options per target, the evidence on the answer).
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PolicyChatModelBenchmark extends SuiteSettings {

  private static final byte[] ANSWER = ("{\"model\":\"m\",\"done\":true,\"prompt_eval_count\":3,\"eval_count\":2,"
      + "\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}").getBytes(StandardCharsets.UTF_8);

  private final Prompt prompt = new Prompt("Summarize the ticket.");
  private HttpServer server;
  private ExecutorService serverThreads;
  private OllamaChatModel model;
  private PolicyChatModel plan;

  @Setup
  public void setUp() throws IOException {
    // the JDK server writes headers and body separately: without TCP_NODELAY, Nagle and the client's delayed ACK add
    // about 40 ms to every exchange, which would hide everything else
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    serverThreads = Executors.newFixedThreadPool(2);
    server.setExecutor(serverThreads);
    server.createContext("/api/chat", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, ANSWER.length);
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(ANSWER);
      }
    });
    server.start();
    model = loopbackModel(server.getAddress().getPort());
    plan = onePlan(model);
    if (!"ok".equals(direct().getResult().getOutput().getText())
        || !"ok".equals(policy().getResult().getOutput().getText())) {
      throw new IllegalStateException("the loopback model did not answer");
    }
  }

  /** Spring AI's Ollama model of the loopback server on {@code port}, its errors recorded as ZeoCore's targets do. */
  static OllamaChatModel loopbackModel(int port) {
    return OllamaChatModel.builder()
        .ollamaApi(OllamaApi.builder().baseUrl("http://127.0.0.1:" + port)
            .responseErrorHandler(new AttemptRecordingResponseErrorHandler(RetryUtils.DEFAULT_RESPONSE_ERROR_HANDLER))
            .build())
        .options(OllamaChatOptions.builder().model("m").build())
        .build();
  }

  /** A one-target plan over {@code model}. */
  static PolicyChatModel onePlan(OllamaChatModel model) {
    return PolicyChatModel.builder().runner(ResilientRunner.create())
        .policy(ExecutionPolicy.builder().name("ask").totalTimeout(Duration.ofSeconds(30))
            .attemptTimeout(Duration.ofSeconds(10)).attemptTargets("ollama").build())
        .model("ollama", model)
        .build();
  }

  @TearDown
  public void tearDown() {
    server.stop(0);
    serverThreads.shutdownNow();
  }

  @Benchmark
  public ChatResponse direct() {
    return model.call(prompt);
  }

  @Benchmark
  public ChatResponse policy() {
    return plan.call(prompt);
  }
}
