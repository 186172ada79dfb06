package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A user's own Spring {@code RestClient} call as a target, against a real loopback HTTP server: the default
 * {@link ExceptionClassifier} decides which failures fall back to the second target.
 */
class RestClientTargetTest {

  private static final String SECRET_BODY = "canary-5d1e-provider-said-secret-token";

  private HttpServer server;
  private ExecutorService serverThreads;
  private String base;
  private final AtomicInteger fallbackCalls = new AtomicInteger();
  private RestClient http;
  private final ResilientRunner runner = ResilientRunner.create();
  private final ExecutionPolicy policy = ExecutionPolicy.builder()
      .name("summarize")
      .totalTimeout(Duration.ofSeconds(20))
      .attemptTimeout(Duration.ofSeconds(10))
      .attemptTargets("primary", "fallback")
      .build();

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    serverThreads = Executors.newCachedThreadPool();
    server.setExecutor(serverThreads);
    server.createContext("/answer", exchange -> {
      fallbackCalls.incrementAndGet();
      respond(exchange, 200, "the fallback's answer");
    });
    server.createContext("/unavailable", exchange -> respond(exchange, 503, SECRET_BODY));
    server.createContext("/busy", exchange -> {
      exchange.getResponseHeaders().add("Retry-After", "1");
      respond(exchange, 429, SECRET_BODY);
    });
    server.createContext("/bad-request", exchange -> respond(exchange, 400, SECRET_BODY));
    server.createContext("/forbidden", exchange -> respond(exchange, 403, SECRET_BODY));
    server.createContext("/slow", exchange -> {
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      respond(exchange, 200, "too late");
    });
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
    requests.setReadTimeout(Duration.ofSeconds(2)); // generous: the machine may be busy
    http = RestClient.builder().requestFactory(requests).build();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
    serverThreads.shutdownNow();
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private SyncExecutionTarget<String> get(String id, String url) {
    return SyncExecutionTarget.of(id, String.class, context -> http.get().uri(url).retrieve().body(String.class));
  }

  private ResilientExecutionResult<String> runWithPrimaryAt(String url) {
    return runner.runSync(policy, Map.of(
        "primary", get("primary", url),
        "fallback", get("fallback", base + "/answer")));
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void fallsBackWhenConnectionIsRefused() throws IOException {
    ResilientExecutionResult<String> result = runWithPrimaryAt("http://127.0.0.1:" + closedPort() + "/answer");

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo("the fallback's answer");
    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    AttemptRecord first = result.attempts().get(0);
    assertThat(first.failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(first.dispatchStarted()).isFalse();
  }

  @Test
  void fallsBackOnServiceUnavailable() {
    ResilientExecutionResult<String> result = runWithPrimaryAt(base + "/unavailable");

    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(result.attempts().get(0).dispatchStarted()).isTrue();
    assertThat(result.toString()).doesNotContain(SECRET_BODY);
  }

  @Test
  void fallsBackOnTooManyRequestsAfterTheServersRetryAfter() {
    ResilientExecutionResult<String> result = runWithPrimaryAt(base + "/busy");

    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    AttemptRecord first = result.attempts().get(0);
    assertThat(first.failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(first.backoffBeforeNext()).isEqualTo(Duration.ofSeconds(1));
    assertThat(result.attempts().get(1).startedAfter()).isGreaterThanOrEqualTo(first.endedAfter().plusSeconds(1));
  }

  @Test
  void fallsBackOnReadTimeout() {
    ResilientExecutionResult<String> result = runWithPrimaryAt(base + "/slow");

    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TIMEOUT);
  }

  @Test
  void doesNotFallBackOnBadRequest() {
    ResilientExecutionResult<String> result = runWithPrimaryAt(base + "/bad-request");

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.failureKind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(result.attempts()).hasSize(1);
    assertThat(fallbackCalls).hasValue(0);
  }

  @Test
  void doesNotFallBackOnForbidden() {
    ResilientExecutionResult<String> result = runWithPrimaryAt(base + "/forbidden");

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.failureKind()).isEqualTo(FailureKind.AUTHENTICATION);
    assertThat(fallbackCalls).hasValue(0);
  }

  @Test
  void policyMappingMakesBadRequestFallBack() {
    ExecutionPolicy mapped = policy.toBuilder()
        .failureKind(org.springframework.web.client.HttpClientErrorException.BadRequest.class, FailureKind.TRANSIENT)
        .build();

    ResilientExecutionResult<String> result = runner.runSync(mapped, Map.of(
        "primary", get("primary", base + "/bad-request"),
        "fallback", get("fallback", base + "/answer")));

    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
  }
}
