package io.zeocore.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The packaged sample, processed by Spring AOT at build time, started from the generated code
 * ({@code -Dspring.aot.enabled=true}) in a child JVM, as a native image would start it: it serves a summary and a
 * payment. Runs after {@code package} (failsafe).
 */
class SampleAotIT {

  private static final Path JAR = Path.of("target", "zeo-core-sample-app.jar");
  private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private Process sample;

  @AfterEach
  void stopTheSample() throws InterruptedException {
    if (sample != null) {
      sample.destroy();
      if (!sample.waitFor(30, TimeUnit.SECONDS)) {
        sample.destroyForcibly();
      }
    }
  }

  @Test
  void theSampleStartsFromAotGeneratedCodeAndServesASummaryAndAPayment() throws Exception {
    try (ZipFile jar = new ZipFile(JAR.toFile())) {
      assertThat(jar.stream().map(entry -> entry.getName()))
          .as("the jar holds Spring AOT's generated bean definitions")
          .anyMatch(name -> name.startsWith("BOOT-INF/classes/") && name.endsWith("__BeanDefinitions.class"));
    }
    Path dataDir = Files.createTempDirectory("zeocore-sample-aot");
    Path log = dataDir.resolve("sample.log");
    sample = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dspring.aot.enabled=true", "-jar", JAR.toString(), "--server.port=0",
        "--sample.data-dir=" + dataDir.resolve("data"), "--zeocore.llm.ollama.base-url=http://127.0.0.1:9"))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();

    int port = awaitReady(log);

    String output = Files.readString(log);
    assertThat(output).as("started from the AOT-generated code").contains("Starting AOT-processed");
    HttpResponse<String> summary = post(port, "/api/summaries", "text/plain", "Hello ZeoCore");
    assertThat(summary.statusCode()).as(summary.body()).isEqualTo(200);
    JsonNode summarized = JSON.readTree(summary.body());
    assertThat(summarized.path("outcome").asString()).isEqualTo("succeeded");
    assertThat(summarized.path("selectedTargetId").asString()).isEqualTo("text-stats");
    HttpResponse<String> payment = post(port, "/api/payments", "application/json",
        "{\"amountCents\":1250,\"reference\":\"inv-1\"}");
    assertThat(payment.statusCode()).as(payment.body()).isEqualTo(201);
    assertThat(JSON.readTree(payment.body()).path("state").asString()).isEqualTo("SUCCEEDED");
  }

  /** Waits, generously (the machine may be loaded), until the sample says it is ready; returns its port. */
  private int awaitReady(Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (System.nanoTime() < deadline) {
      String output = Files.readString(log);
      Matcher port = PORT.matcher(output);
      if (port.find() && output.contains("ZeoCore sample is ready")) {
        return Integer.parseInt(port.group(1));
      }
      assertThat(sample.isAlive()).as("the sample exited early:%n%s", output).isTrue();
      Thread.sleep(200);
    }
    throw new AssertionError("the sample was not ready within 3 minutes:\n" + Files.readString(log));
  }

  private HttpResponse<String> post(int port, String path, String contentType, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(60)).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
