package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.ClosingHttpServer.Failure;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * A server that accepts the connection, reads the request and then closes, resets or cuts its answer short: for a
 * read-only plan that is a {@code TRANSIENT} failure after dispatch, so the runner falls back (or retries), through
 * every HTTP client a Spring application uses, against a real loopback server.
 */
class ReadSideIoFailureTest {

  private static final Duration GENEROUS = Duration.ofSeconds(10);

  private final ResilientRunner runner = ResilientRunner.create();
  private final AtomicInteger fallbackCalls = new AtomicInteger();

  /** One HTTP call of {@code url}, made the way an application's target would make it. */
  @FunctionalInterface
  interface Client {
    String post(String url) throws Exception;
  }

  private static Client restClientOnTheJdkHttpClient() {
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
        HttpClient.newBuilder().connectTimeout(GENEROUS).build());
    requests.setReadTimeout(GENEROUS);
    RestClient http = RestClient.builder().requestFactory(requests).build();
    return url -> http.post().uri(url).body("question").retrieve().body(String.class);
  }

  private static Client restClientOnHttpUrlConnection() {
    SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
    requests.setConnectTimeout(GENEROUS);
    requests.setReadTimeout(GENEROUS);
    RestClient http = RestClient.builder().requestFactory(requests).build();
    return url -> http.post().uri(url).body("question").retrieve().body(String.class);
  }

  private static Client jdkHttpClient() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(GENEROUS).build();
    return url -> http.send(HttpRequest.newBuilder(URI.create(url)).timeout(GENEROUS)
        .POST(HttpRequest.BodyPublishers.ofString("question")).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  private static Client webClientOnReactorNetty() {
    WebClient http = WebClient.create();
    return url -> http.post().uri(url).bodyValue("question").retrieve().bodyToMono(String.class).block(GENEROUS);
  }

  static Stream<Arguments> clientsAndFailures() {
    Map<String, Client> clients = Map.of(
        "RestClient (JDK HttpClient)", restClientOnTheJdkHttpClient(),
        "RestClient (HttpURLConnection)", restClientOnHttpUrlConnection(),
        "JDK HttpClient", jdkHttpClient(),
        "WebClient (reactor-netty)", webClientOnReactorNetty());
    List<Arguments> cases = new ArrayList<>();
    clients.forEach((name, client) -> {
      for (Failure failure : Failure.values()) {
        // HttpURLConnection hands a short fixed-length body over as if it were whole: nothing to classify
        if (!(name.contains("HttpURLConnection") && failure == Failure.PREMATURE_END_OF_BODY)) {
          cases.add(Arguments.of(name, client, failure));
        }
      }
    });
    return cases.stream();
  }

  private SyncExecutionTarget<String> fallback() {
    return SyncExecutionTarget.of("fallback", String.class, context -> {
      fallbackCalls.incrementAndGet();
      return "the fallback's answer";
    });
  }

  private static ExecutionPolicy readOnly(OperationMode mode, String... plan) {
    return ExecutionPolicy.builder()
        .name("read")
        .operationMode(mode)
        .totalTimeout(Duration.ofSeconds(60))
        .attemptTimeout(Duration.ofSeconds(20))
        .attemptTargets(plan)
        .build();
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("clientsAndFailures")
  void aConnectionLostAfterTheRequestWasSentIsTransientAndFallsBack(String name, Client client, Failure failure)
      throws IOException {
    try (ClosingHttpServer server = new ClosingHttpServer(failure)) {
      ResilientExecutionResult<String> result = runner.runSync(readOnly(OperationMode.READ_ONLY, "primary", "fallback"),
          Map.of("primary", SyncExecutionTarget.of("primary", String.class,
                  context -> client.post(server.baseUrl() + "/summaries")),
              "fallback", fallback()));

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(result.selectedTargetId()).isEqualTo("fallback");
      AttemptRecord lost = result.attempts().get(0);
      assertThat(lost.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(lost.machineCode()).isEqualTo(MachineCodes.TRANSIENT);
      assertThat(lost.dispatchStarted()).isTrue();
      assertThat(server.requestsRead()).as("the request reached the server").isGreaterThanOrEqualTo(1);
      assertThat(fallbackCalls).hasValue(1);
    }
  }

  @Test
  void anAdvisoryPlanRetriesTheSameTargetAfterTheServerClosedWithoutAnswering() throws IOException {
    Client client = restClientOnTheJdkHttpClient();
    try (ClosingHttpServer server = new ClosingHttpServer(Failure.CLOSE_WITHOUT_ANSWER)) {
      ResilientExecutionResult<String> result = runner.runSync(readOnly(OperationMode.ADVISORY, "primary", "primary"),
          Map.of("primary", SyncExecutionTarget.of("primary", String.class,
              context -> client.post(server.baseUrl() + "/summaries"))));

      assertThat(result.outcome()).isEqualTo(ExecutionOutcome.EXHAUSTED);
      assertThat(result.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(result.attempts()).hasSize(2).allSatisfy(attempt -> {
        assertThat(attempt.failureKind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(attempt.dispatchStarted()).isTrue();
      });
      assertThat(server.requestsRead()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void aRefusedConnectionStaysTransientBeforeDispatchThroughEveryClient() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port + "/summaries";
    for (Client client : List.of(restClientOnTheJdkHttpClient(), restClientOnHttpUrlConnection(), jdkHttpClient(),
        webClientOnReactorNetty())) {
      ResilientExecutionResult<String> result = runner.runSync(readOnly(OperationMode.READ_ONLY, "primary", "fallback"),
          Map.of("primary", SyncExecutionTarget.of("primary", String.class, context -> client.post(url)),
              "fallback", fallback()));

      AttemptRecord refused = result.attempts().get(0);
      assertThat(refused.failureKind()).isEqualTo(FailureKind.TRANSIENT);
      assertThat(refused.dispatchStarted()).isFalse();
    }
  }

  private static FailureClassification classify(Throwable thrown) {
    return ExceptionClassifier.defaults().classify(thrown);
  }

  @Test
  void aRefusedConnectionOrATimeoutInsideAnIoFailureKeepsItsOwnClassification() {
    IOException refused = new IOException("wrapper", new ConnectException("Connection refused"));
    IOException timedOut = new IOException("HTTP/1.1 header parser received no bytes",
        new SocketTimeoutException("Read timed out"));

    assertThat(classify(new ResourceAccessException("I/O error", refused)))
        .isEqualTo(FailureClassification.beforeDispatch(FailureKind.TRANSIENT));
    assertThat(classify(new UncheckedIOException(timedOut)).kind()).isEqualTo(FailureKind.TIMEOUT);
  }

  @Test
  void aWebClientRequestExceptionIsClassifiedByItsCause() {
    WebClientRequestException lost = new WebClientRequestException(new java.net.SocketException("Connection reset"),
        HttpMethod.POST, URI.create("http://127.0.0.1/summaries"), new HttpHeaders());
    WebClientRequestException refused = new WebClientRequestException(new ConnectException("Connection refused"),
        HttpMethod.POST, URI.create("http://127.0.0.1/summaries"), new HttpHeaders());

    assertThat(classify(lost)).isEqualTo(FailureClassification.of(FailureKind.TRANSIENT));
    assertThat(classify(refused)).isEqualTo(FailureClassification.beforeDispatch(FailureKind.TRANSIENT));
  }

  @Test
  void ioFailuresThatAreNotALostConnectionHaveNoOpinion() {
    assertThat(classify(new FileNotFoundException("/etc/summaries.json"))).isNull();
    assertThat(classify(new UncheckedIOException(new IOException("disk quota exceeded")))).isNull();
    assertThat(classify(new javax.net.ssl.SSLHandshakeException("PKIX path building failed"))).isNull();
  }
}
