package io.zeocore.test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP server on loopback that replays a script of replies, one per request, for the targets an application
 * really has: a {@code RestClient} target, ZeoCore's LLM clients, a Spring AI model pointed at {@link #baseUrl()}.
 * The last reply repeats; a request with no reply scripted gets {@code 500}. Every request is recorded
 * ({@link #requests()}), so a test counts what reached the provider. Delays are real time: this is real I/O.
 *
 * <pre>{@code
 * try (ScriptedHttpServer provider = ScriptedHttpServer.start()) {
 *   provider.reply(Reply.status(429).header("Retry-After", "2"))
 *       .reply(Reply.json(200, "{\"summary\":\"ok\"}").after(Duration.ofMillis(50)));
 *   ... RestClient.create(provider.baseUrl()) ...
 *   assertThat(provider.requests()).hasSize(2);
 * }
 * }</pre>
 */
public final class ScriptedHttpServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService workers;
  private final List<Reply> script = new CopyOnWriteArrayList<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  private ScriptedHttpServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    workers = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "zeocore-scripted-http");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(workers);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a server on a free loopback port. */
  public static ScriptedHttpServer start() {
    try {
      return new ScriptedHttpServer();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start a loopback HTTP server", e);
    }
  }

  /** One scripted reply: a status, headers, a body, and a delay before it is sent. */
  public record Reply(int status, Map<String, String> headers, String body, Duration delay) {

    public Reply {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("an HTTP status is between 100 and 599, was " + status);
      }
      headers = Map.copyOf(headers);
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(delay, "delay");
    }

    /** {@code status} with an empty body. */
    public static Reply status(int status) {
      return new Reply(status, Map.of(), "", Duration.ZERO);
    }

    /** {@code status} with a JSON body. */
    public static Reply json(int status, String body) {
      return new Reply(status, Map.of("Content-Type", "application/json"), body, Duration.ZERO);
    }

    /** This reply with one more header. */
    public Reply header(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Reply(status, more, body, delay);
    }

    /** This reply sent after {@code wait} (real time). */
    public Reply after(Duration wait) {
      return new Reply(status, headers, body, wait);
    }
  }

  /** One request as it arrived. */
  public record Request(String method, String path, Map<String, List<String>> headers, String body) {

    /** The first value of header {@code name} (case-insensitive), or {@code null}. */
    public @Nullable String header(String name) {
      for (Map.Entry<String, List<String>> header : headers.entrySet()) {
        if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
          return header.getValue().get(0);
        }
      }
      return null;
    }
  }

  /** Appends {@code reply} to the script. */
  public ScriptedHttpServer reply(Reply reply) {
    script.add(Objects.requireNonNull(reply, "reply"));
    return this;
  }

  /** Replaces the script with {@code replies}. */
  public ScriptedHttpServer replies(Reply... replies) {
    script.clear();
    for (Reply reply : replies) {
      reply(reply);
    }
    return this;
  }

  /** Forgets the script and the requests received: for a server shared by several tests. */
  public ScriptedHttpServer reset() {
    script.clear();
    synchronized (requests) {
      requests.clear();
    }
    return this;
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI baseUrl() {
    return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":"
        + server.getAddress().getPort());
  }

  /** The port it listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Every request so far, in arrival order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    int index;
    synchronized (requests) {
      requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
          Map.copyOf(exchange.getRequestHeaders()), new String(exchange.getRequestBody().readAllBytes(),
          StandardCharsets.UTF_8)));
      index = requests.size() - 1;
    }
    List<Reply> replies = new ArrayList<>(script);
    Reply reply = replies.isEmpty() ? Reply.json(500, "{\"error\":\"no reply scripted\"}")
        : replies.get(Math.min(index, replies.size() - 1));
    try {
      if (!reply.delay().isZero()) {
        Thread.sleep(reply.delay().toMillis(), (int) (reply.delay().toNanos() % 1_000_000));
      }
      reply.headers().forEach(exchange.getResponseHeaders()::add);
      byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // the client gave up (its timeout): nothing to answer
    } finally {
      exchange.close();
    }
  }

  /** Stops the server at once. */
  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
