package io.zeocore.llm;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real HTTP server on 127.0.0.1 (JDK {@link HttpServer}, ephemeral port) that records every request and answers
 * with a scripted reply; the last script entry repeats. Shared by the LLM client and Spring AI tests.
 */
public final class LoopbackServer implements AutoCloseable, AfterEachCallback {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** One recorded request. */
  public record Request(String method, String path, Headers headers, byte[] body) {
    public JsonNode json() {
      return JSON.readTree(body);
    }
  }

  /** What the server does with one request. */
  @FunctionalInterface
  public interface Reply {
    void send(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  /** The prefix of the server's own thread names, so that a test can tell them from the client's. */
  public static final String THREAD_PREFIX = "loopback-server-";
  private static final AtomicInteger THREADS = new AtomicInteger();
  private final ExecutorService executor = Executors.newCachedThreadPool(task -> {
    Thread thread = new Thread(task, THREAD_PREFIX + THREADS.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  });
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final CountDownLatch clientClosed = new CountDownLatch(1);
  private volatile List<Reply> script = List.of(status(500, ""));
  private final AtomicInteger served = new AtomicInteger();

  private LoopbackServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
    server.setExecutor(executor);
    server.createContext("/", exchange -> {
      try (exchange) {
        requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
            exchange.getRequestHeaders(), exchange.getRequestBody().readAllBytes()));
        List<Reply> current = script;
        int index = Math.min(served.getAndIncrement(), current.size() - 1);
        current.get(index).send(exchange);
      }
    });
    server.start();
  }

  /** A server for one test: declare it as a {@code @RegisterExtension} field; it is closed after the test. */
  public static LoopbackServer forEachTest() {
    try {
      return start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  public static LoopbackServer start() throws IOException {
    return new LoopbackServer();
  }

  /** The server's base URL, e.g. {@code http://127.0.0.1:40123}. */
  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Replies in order; the last one repeats. */
  public LoopbackServer replies(Reply... replies) {
    served.set(0);
    script = List.of(replies);
    return this;
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  public Request onlyRequest() {
    if (requests.size() != 1) {
      throw new AssertionError("expected exactly one request, got " + requests.size());
    }
    return requests.get(0);
  }

  /** A reply with a status, a body and headers. */
  public static Reply status(int status, String body, Map<String, String> headers) {
    return exchange -> {
      headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    };
  }

  public static Reply status(int status, String body) {
    return status(status, body, Map.of());
  }

  /** An Ollama {@code /api/chat} success. */
  public static Reply ollamaReply(String content) {
    return status(200, JSON.createObjectNode()
        .put("model", "m")
        .put("done", true)
        .set("message", JSON.createObjectNode().put("role", "assistant").put("content", content))
        .toString());
  }

  /** An OpenAI {@code /chat/completions} success. */
  public static Reply openAiReply(String content) {
    var body = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
        .put("created", 1700000000L).put("model", "m");
    body.putArray("choices").addObject()
        .put("index", 0)
        .put("finish_reason", "stop")
        .set("message", JSON.createObjectNode().put("role", "assistant").put("content", content));
    return status(200, body.toString());
  }

  /** Never answers: holds the exchange until the server is closed. */
  public Reply hang() {
    return exchange -> {
      try {
        closed.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** How a {@link #streamed} reply ends after its lines. */
  public enum StreamEnd {
    /** The body ends properly. */
    COMPLETE,
    /** Nothing more is sent until the server closes: the connection stays open. */
    HANG,
    /** The connection is dropped short of the declared length: the client sees the stream cut. */
    CUT
  }

  /**
   * A streamed reply: status 200 with {@code contentType}, then each line written and flushed {@code gap} after the
   * one before, then {@code end}. A write that fails because the client closed the connection counts down
   * {@link #clientClosed()} and ends the reply.
   */
  public Reply streamed(String contentType, List<String> lines, java.time.Duration gap, StreamEnd end) {
    return exchange -> {
      exchange.getResponseHeaders().add("Content-Type", contentType);
      int length = 0;
      for (String line : lines) {
        length += line.getBytes(StandardCharsets.UTF_8).length;
      }
      exchange.sendResponseHeaders(200, end == StreamEnd.CUT ? length + 4096 : 0);
      OutputStream out = exchange.getResponseBody();
      try {
        for (String line : lines) {
          if (!gap.isZero() && closed.await(gap.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
          }
          out.write(line.getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
        if (end == StreamEnd.HANG) {
          closed.await(60, TimeUnit.SECONDS);
        } else if (end == StreamEnd.COMPLETE) {
          out.close();
        }
      } catch (IOException clientWentAway) {
        clientClosed.countDown();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** Counted down when a {@link #streamed} reply found its connection closed by the client. */
  public CountDownLatch clientClosed() {
    return clientClosed;
  }

  /** Ollama NDJSON lines, one per content. */
  public static List<String> ollamaLines(String... contents) {
    List<String> lines = new java.util.ArrayList<>();
    for (String content : contents) {
      lines.add(ollamaChunk(content));
    }
    return lines;
  }

  /** OpenAI server-sent events, one per content. */
  public static List<String> openAiLines(String... contents) {
    List<String> lines = new java.util.ArrayList<>();
    for (String content : contents) {
      lines.add(openAiChunk(content));
    }
    return lines;
  }

  /** {@code lines} followed by {@code last}. */
  public static List<String> plus(List<String> lines, String last) {
    List<String> all = new java.util.ArrayList<>(lines);
    all.add(last);
    return all;
  }

  /** One Ollama NDJSON stream line carrying {@code content}. */
  public static String ollamaChunk(String content) {
    return JSON.createObjectNode().put("model", "m").put("done", false)
        .set("message", JSON.createObjectNode().put("role", "assistant").put("content", content)).toString() + "\n";
  }

  /** The last Ollama NDJSON stream line: done, with its token counts. */
  public static String ollamaDone() {
    return "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,"
        + "\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":5}\n";
  }

  /** One OpenAI server-sent event carrying {@code content} as a chat completion chunk. */
  public static String openAiChunk(String content) {
    var chunk = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
        .put("created", 1700000000L).put("model", "m");
    chunk.putArray("choices").addObject().put("index", 0).putNull("finish_reason")
        .set("delta", JSON.createObjectNode().put("role", "assistant").put("content", content));
    return "data: " + chunk + "\n\n";
  }

  /** The end of an OpenAI stream: a chunk with the finish reason, one with the usage, then {@code [DONE]}. */
  public static String openAiDone() {
    return "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
        + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
        + "\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5,"
        + "\"total_tokens\":8}}\n\n"
        + "data: [DONE]\n\n";
  }

  /** A loopback port nobody listens on (bound, then released). */
  public static URI refusedBaseUrl() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
