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
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile List<Reply> script = List.of(status(500, ""));
  private final AtomicInteger served = new AtomicInteger();

  private LoopbackServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
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
