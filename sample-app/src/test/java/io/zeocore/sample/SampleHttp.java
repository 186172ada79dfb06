package io.zeocore.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample's HTTP API as its tests call it, over real HTTP on {@code 127.0.0.1}: whether the sample runs inside the
 * test ({@link SampleApplicationEndToEndTests}) or as a child JVM ({@link SampleApplicationAotIT}).
 */
final class SampleHttp {

  static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  SampleHttp(int port) {
    this.port = port;
  }

  HttpResponse<String> post(String path, String contentType, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30)).GET().build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Runs {@code policy} on {@code text} through {@code POST /api/summaries}; the answer must be a 200. */
  JsonNode summarize(String policy, String text) throws Exception {
    return summarize(policy, text, 200);
  }

  /**
   * Runs {@code policy} on {@code text} through {@code POST /api/summaries}; the answer must have {@code status}, its
   * body is the run's evidence whatever the outcome.
   */
  JsonNode summarize(String policy, String text, int status) throws Exception {
    HttpResponse<String> response = post("/api/summaries?policy=" + policy, "text/plain", text);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  /** Submits the payment {@code json} through {@code POST /api/payments}; the answer must be a 201. */
  JsonNode pay(String json) throws Exception {
    HttpResponse<String> response = post("/api/payments", "application/json", json);
    assertThat(response.statusCode()).isEqualTo(201);
    return JSON.readTree(response.body());
  }

  /** The text of {@code field} in each element of {@code array}. */
  static List<String> texts(JsonNode array, String field) {
    List<String> values = new ArrayList<>();
    array.forEach(node -> values.add(node.path(field).asString()));
    return values;
  }
}
