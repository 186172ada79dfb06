package io.zeocore.benchmarks;

import com.sun.net.httpserver.HttpServer;
import io.zeocore.springai.PolicyChatModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.ollama.OllamaChatModel;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

/**
 * Item 10: the overhead of a streamed {@link PolicyChatModel} over the same Spring AI Ollama model's own
 * {@code stream()}, against a loopback server (the JDK's {@code HttpServer}) that writes a whole NDJSON answer of
 * {@value #CHUNKS} content chunks at once. {@code *FirstChunk} returns as soon as the first chunk arrives (the time
 * to first token) and cancels the rest after that; {@code *WholeStream} reads every chunk, so that {@code (policy - direct) / CHUNKS} bounds the cost
 * per chunk.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PolicyChatModelStreamBenchmark extends SuiteSettings {

  static final int CHUNKS = 32;

  private final Prompt prompt = new Prompt("Summarize the ticket.");
  private HttpServer server;
  private ExecutorService serverThreads;
  private OllamaChatModel model;
  private PolicyChatModel plan;

  static byte[] answer() {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int i = 0; i < CHUNKS; i++) {
      body.writeBytes(("{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"tok" + i + " \"},"
          + "\"done\":false}\n").getBytes(StandardCharsets.UTF_8));
    }
    body.writeBytes(("{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,"
        + "\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":" + CHUNKS + "}\n")
        .getBytes(StandardCharsets.UTF_8));
    return body.toByteArray();
  }

  @Setup
  public void setUp() throws IOException, InterruptedException {
    System.setProperty("sun.net.httpserver.nodelay", "true"); // see PolicyChatModelBenchmark
    byte[] answer = answer();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    serverThreads = Executors.newFixedThreadPool(2);
    server.setExecutor(serverThreads);
    server.createContext("/api/chat", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(answer);
      } catch (IOException closedByTheClient) {
        // a first-chunk benchmark cancels the rest of the answer
      }
    });
    server.start();
    model = PolicyChatModelBenchmark.loopbackModel(server.getAddress().getPort());
    plan = PolicyChatModelBenchmark.onePlan(model);
    if (!"tok0 ".equals(directFirstChunk().getResult().getOutput().getText())
        || !"tok0 ".equals(policyFirstChunk().getResult().getOutput().getText())
        || directWholeStream() != CHUNKS + 1 || policyWholeStream() != CHUNKS + 1) {
      throw new IllegalStateException("the loopback model did not stream its answer");
    }
  }

  @TearDown
  public void tearDown() {
    server.stop(0);
    serverThreads.shutdownNow();
  }

  @Benchmark
  public ChatResponse directFirstChunk() throws InterruptedException {
    return firstChunk(model.stream(prompt));
  }

  @Benchmark
  public ChatResponse policyFirstChunk() throws InterruptedException {
    return firstChunk(plan.stream(prompt));
  }

  /**
   * The first response of {@code stream}, returned as soon as it arrives; the rest is cancelled after that, off the
   * measured path (as a caller that shows the first token and then stops reading would).
   */
  static ChatResponse firstChunk(Flux<ChatResponse> stream) throws InterruptedException {
    CountDownLatch first = new CountDownLatch(1);
    AtomicReference<ChatResponse> answer = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    stream.subscribe(new BaseSubscriber<>() {
      @Override
      protected void hookOnNext(ChatResponse response) {
        if (answer.compareAndSet(null, response)) {
          first.countDown();
          cancel();
        }
      }

      @Override
      protected void hookOnError(Throwable thrown) {
        failure.set(thrown);
        first.countDown();
      }

      @Override
      protected void hookOnComplete() {
        first.countDown();
      }
    });
    if (!first.await(30, TimeUnit.SECONDS) || answer.get() == null) {
      throw new IllegalStateException("no first response", failure.get());
    }
    return answer.get();
  }

  @Benchmark
  public long directWholeStream() {
    return model.stream(prompt).count().block();
  }

  @Benchmark
  public long policyWholeStream() {
    return plan.stream(prompt).count().block();
  }
}
