package io.zeocore.sample;

import static io.zeocore.sample.SampleHttp.JSON;
import static io.zeocore.sample.SampleHttp.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The packaged sample, processed by Spring AOT at build time ({@code process-aot}), started from the generated code the
 * way a native image starts it ({@code java -Dspring.aot.enabled=true -jar}) in a child JVM, serves a summary and a
 * payment over HTTP. Run by failsafe after {@code package}.
 */
class SampleApplicationAotIT {

  /** How long the child may take to answer its health endpoint; this machine may be loaded. */
  private static final Duration READY_WITHIN = Duration.ofMinutes(2);

  /** The line Spring Boot logs when it starts from AOT-generated code. */
  private static final String AOT_STARTED = "Starting AOT-processed SampleApplication";

  @TempDir
  Path temp;

  private Process sample;

  @AfterEach
  void stopTheSample() throws InterruptedException {
    if (sample == null) {
      return;
    }
    List<ProcessHandle> descendants = sample.descendants().toList();
    sample.destroy();
    if (!sample.waitFor(20, TimeUnit.SECONDS)) {
      sample.destroyForcibly();
      sample.waitFor(20, TimeUnit.SECONDS);
    }
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void theSampleStartsFromAotGeneratedCodeAndServesASummaryAndAPayment() throws Exception {
    Path jar = Path.of(System.getProperty("sample.jar", "target/zeo-core-sample-app.jar"));
    assertThat(jar).as("the packaged sample (mvn package)").isRegularFile();
    assertGeneratedAheadOfTime(jar);

    int port = freePort();
    Path log = temp.resolve("sample.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    sample = new ProcessBuilder(java, "-Dspring.aot.enabled=true", "-jar", jar.toAbsolutePath().toString(),
        "--server.port=" + port, "--sample.data-dir=" + temp.resolve("data"),
        // no Ollama answers here, whatever runs on this machine: the summary comes from the subprocess provider
        "--zeocore.llm.ollama.base-url=http://127.0.0.1:9")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    SampleHttp http = new SampleHttp(port);
    awaitReady(http, log);
    assertThat(Files.readString(log)).as("started from the AOT-generated code").contains(AOT_STARTED);

    JsonNode summary = http.summarize("summarize", "Hello ZeoCore from AOT");
    assertThat(summary.path("outcome").asString()).isEqualTo("succeeded");
    assertThat(summary.path("selectedTargetId").asString()).isEqualTo("text-stats");

    JsonNode payment = http.pay("{\"amountCents\":1250,\"reference\":\"inv-1\"}");
    assertThat(payment.path("state").asString()).isEqualTo("SUCCEEDED");
    String effectId = payment.path("effectId").asString();
    assertThat(effectId).startsWith("exec-");
    JsonNode record = JSON.readTree(http.get("/api/payments/" + effectId).body());
    assertThat(texts(record.path("receipts"), "finalState")).containsExactly("SUCCEEDED");
  }

  /**
   * The jar holds the code AOT generated for the sample and for ZeoCore's auto-configurations, and ZeoCore's runtime
   * hints in the native-image metadata it generated.
   */
  private static void assertGeneratedAheadOfTime(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      assertThat(zip.getEntry("BOOT-INF/classes/io/zeocore/sample/SampleApplication__ApplicationContextInitializer"
          + ".class")).as("the sample's generated initializer").isNotNull();
      assertThat(zip.getEntry("BOOT-INF/classes/io/zeocore/autoconfigure/connections/"
          + "ZeoCoreConnectionsAutoConfiguration__BeanDefinitions.class")).as("ZeoCore's generated definitions")
          .isNotNull();
      ZipEntry metadata = zip.getEntry(
          "META-INF/native-image/io.zeocore/zeo-core-sample-app/reachability-metadata.json");
      assertThat(metadata).as("the generated native-image metadata").isNotNull();
      JsonNode hints = JSON.readTree(zip.getInputStream(metadata));
      assertThat(texts(hints.path("resources"), "glob")).as("ZeoCore's resource hints")
          .contains("db/zeocore/**", "META-INF/spring-configuration-metadata.json");
      assertThat(texts(hints.path("reflection"), "type")).as("ZeoCore's reflection hints")
          .contains("io.zeocore.internal.MillisecondsJson$Writer", "io.zeocore.connections.contract.EffectRecord");
    }
  }

  /** Polls the health endpoint until it is UP; fails at once, with the sample's log, if the sample exits. */
  private void awaitReady(SampleHttp http, Path log) throws Exception {
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      if (!sample.isAlive()) {
        fail("the sample exited with " + sample.exitValue() + " before it was ready:\n" + tail(log));
      }
      try {
        HttpResponse<String> health = http.get("/actuator/health");
        if (health.statusCode() == 200 && JSON.readTree(health.body()).path("status").asString()
            .equals("UP")) {
          return;
        }
      } catch (IOException notListeningYet) {
        // the port opens late in start-up
      }
      Thread.sleep(250);
    }
    fail("the sample was not ready within " + READY_WITHIN + ":\n" + tail(log));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
