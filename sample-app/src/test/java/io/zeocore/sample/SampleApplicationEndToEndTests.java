package io.zeocore.sample;

import static io.zeocore.sample.SampleHttp.JSON;
import static io.zeocore.sample.SampleHttp.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.sample.payments.DemoLedger;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Starts the sample on a random port, as a user would run it, and exercises every endpoint over real HTTP: the read-only
 * policy falling back from an absent Ollama to the subprocess provider, the provider's failure paths, durable payments
 * (confirmed, declined, lost response reconciled, replayed authorization refused) and the actuator endpoints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "zeocore.llm.ollama.base-url=http://127.0.0.1:9")
class SampleApplicationEndToEndTests {

  private static final Path DATA_DIR;

  static {
    try {
      DATA_DIR = Files.createTempDirectory("zeocore-sample-e2e");
    } catch (IOException failure) {
      throw new ExceptionInInitializerError(failure);
    }
    System.setProperty("sample.data-dir", DATA_DIR.toString());
  }

  @LocalServerPort
  int port;

  @Autowired
  DemoLedger ledger;

  @Autowired
  StartupGuide guide;

  private SampleHttp sample;

  @BeforeEach
  void client() {
    sample = new SampleHttp(port);
  }

  @Test
  void summaryFallsBackFromTheAbsentOllamaToTheSubprocessProvider() throws Exception {
    JsonNode result = sample.summarize("summarize", "Hello ZeoCore from the end to end test");
    assertThat(result.path("outcome").asString()).isEqualTo("succeeded");
    assertThat(result.path("selectedTargetId").asString()).isEqualTo("text-stats");
    assertThat(result.path("executionMode").asString()).isEqualTo("live");
    assertThat(result.path("summary").asString()).startsWith("8 words in 1 lines");
    JsonNode attempts = result.path("attempts");
    assertThat(texts(attempts, "targetId")).containsExactly("ollama-local", "text-stats");
    assertThat(attempts.get(0).path("failureKind").asString()).isEqualTo("transient");
    assertThat(attempts.get(0).path("dispatchStarted").asBoolean()).isFalse();
    assertThat(attempts.get(0).path("backoffBeforeNextMillis").asLong()).isEqualTo(200);
    assertThat(attempts.get(1).path("outcome").asString()).isEqualTo("succeeded");
  }

  @Test
  void providerFailuresEndWithEvidenceNotExceptions() throws Exception {
    JsonNode transientFailure = sample.summarize("quick-stats", "please #fail", 503);
    assertThat(transientFailure.path("outcome").asString()).isEqualTo("exhausted");
    assertThat(transientFailure.path("machineCode").asString()).isEqualTo("ZEO_EXEC_TRANSIENT");
    assertThat(transientFailure.path("attempts").size()).isEqualTo(2);

    JsonNode crash = sample.summarize("quick-stats", "please #crash", 502);
    assertThat(crash.path("outcome").asString()).isEqualTo("failed_safe");
    assertThat(crash.path("failureKind").asString()).isEqualTo("permanent");
    assertThat(crash.path("attempts").size()).isEqualTo(1);

    JsonNode hang = sample.summarize("quick-stats", "please #hang", 503);
    assertThat(hang.path("outcome").asString()).isEqualTo("exhausted");
    assertThat(hang.path("failureKind").asString()).isEqualTo("timeout");
    assertThat(texts(hang.path("attempts"), "failureKind")).containsExactly("timeout", "timeout");
    // two 1 s attempts under a 5 s budget, each killed after its 300 ms grace
    assertThat(hang.path("totalElapsedMillis").asLong()).isLessThan(5_000);

    HttpResponse<String> unknownPolicy = sample.post("/api/summaries?policy=nope", "text/plain", "x");
    assertThat(unknownPolicy.statusCode()).isEqualTo(400);
    assertThat(unknownPolicy.body()).contains("unknown policy", "summarize", "quick-stats");
  }

  @Test
  void paymentIsDispatchedOnceWithDurableHistoryAndAReplayedAuthorizationNeverDispatchesAgain() throws Exception {
    int before = ledger.dispatchCount();
    JsonNode outcome = sample.pay("{\"amountCents\":1250,\"reference\":\"inv-1\"}");
    assertThat(outcome.path("state").asString()).isEqualTo("SUCCEEDED");
    String effectId = outcome.path("effectId").asString();

    JsonNode record = JSON.readTree(sample.get("/api/payments/" + effectId).body());
    assertThat(record.path("state").asString()).isEqualTo("SUCCEEDED");
    assertThat(texts(record.path("history"), "state"))
        .containsExactly("CREATED", "AUTHORIZATION_VERIFIED", "PREPARED", "DISPATCH_STARTED", "SUCCEEDED");
    assertThat(record.path("receipts").size()).isEqualTo(1);
    assertThat(record.path("receipts").get(0).path("confirmationEvidenceRef").asString())
        .startsWith("zeo-evidence:v1:");

    HttpResponse<String> replay = sample.post("/api/payments/" + effectId + "/replay", "application/json", "");
    assertThat(replay.statusCode()).isEqualTo(200);
    // the same authorization again is the idempotent-replay path: the existing execution, no second dispatch
    JsonNode replayed = JSON.readTree(replay.body());
    assertThat(replayed.path("effectId").asString()).isEqualTo(effectId);
    assertThat(replayed.path("state").asString()).isEqualTo("SUCCEEDED");
    assertThat(replayed.path("refusalReason").isNull()).isTrue();
    assertThat(ledger.dispatchCount()).isEqualTo(before + 1);
    JsonNode after = JSON.readTree(sample.get("/api/payments/" + effectId).body());
    assertThat(after.path("history").size()).isEqualTo(5);
    assertThat(after.path("receipts").size()).isEqualTo(1);
  }

  @Test
  void declinedPaymentFailsSafeAndALostResponseIsReconciledNotRedispatched() throws Exception {
    JsonNode declined = sample.pay("{\"amountCents\":99,\"reference\":\"inv-2\",\"simulate\":\"decline\"}");
    assertThat(declined.path("state").asString()).isEqualTo("FAILED_SAFE");
    JsonNode declinedRecord = JSON.readTree(sample.get("/api/payments/" + declined.path("effectId").asString()).body());
    assertThat(declinedRecord.path("receipts").get(0).path("errorCode").asString()).isEqualTo("REQUEST_REFUSED");

    int before = ledger.dispatchCount();
    JsonNode lost = sample.pay("{\"amountCents\":500,\"reference\":\"inv-3\",\"simulate\":\"lost-response\"}");
    assertThat(lost.path("state").asString()).isEqualTo("SUCCEEDED");
    assertThat(ledger.dispatchCount()).isEqualTo(before + 1);
    JsonNode record = JSON.readTree(sample.get("/api/payments/" + lost.path("effectId").asString()).body());
    assertThat(texts(record.path("history"), "state")).containsSubsequence("DISPATCH_STARTED", "AMBIGUOUS",
        "SUCCEEDED");
    assertThat(texts(record.path("receipts"), "finalState")).containsExactly("AMBIGUOUS", "SUCCEEDED");
    assertThat(record.path("receipts").get(1).path("resolvesAmbiguousRecordedAt").asString())
        .isEqualTo(record.path("receipts").get(0).path("recordedAt").asString());
  }

  @Test
  void rejectsMalformedPaymentsAndUnknownExecutions() throws Exception {
    assertThat(sample.post("/api/payments", "application/json", "{\"amountCents\":0,\"reference\":\"x\"}").statusCode())
        .isEqualTo(400);
    assertThat(sample.get("/api/payments/exec-unknown").statusCode()).isEqualTo(404);
    assertThat(sample.post("/api/payments/exec-unknown/replay", "application/json", "").statusCode()).isEqualTo(404);
  }

  @Test
  void startupGuidePrintsThePlansOfTheConfiguredPolicies() {
    assertThat(guide.lines()).contains(
        "Policy 'summarize' plans [ollama-local, text-stats], attempts of 20s within 60s, backoff [200ms]",
        "Policy 'quick-stats' plans [text-stats, text-stats], attempts of 1s within 5s");
  }

  @Test
  void actuatorShowsHealthPoliciesAndMetrics() throws Exception {
    sample.summarize("summarize", "warm up the metrics");
    JsonNode health = JSON.readTree(sample.get("/actuator/health").body());
    assertThat(health.path("status").asString()).isEqualTo("UP");
    assertThat(health.path("components").path("zeocore").path("status").asString()).isEqualTo("UP");

    JsonNode zeocore = JSON.readTree(sample.get("/actuator/zeocore").body());
    assertThat(zeocore.toString()).contains("summarize", "quick-stats", "ollama-local", "text-stats");

    HttpResponse<String> attempts = sample.get("/actuator/metrics/zeocore.execution.attempts");
    assertThat(attempts.statusCode()).isEqualTo(200);
    assertThat(attempts.body()).contains("text-stats");

    JsonNode policy = JSON.readTree(sample.get("/actuator/zeocore/summarize").body());
    assertThat(policy.path("policy").path("attemptTargets").toString()).contains("ollama-local");
    assertThat(policy.path("recentRuns").size()).isPositive();
    assertThat(policy.path("recentRuns").get(0).path("kind").asString()).isEqualTo("run");
    assertThat(policy.path("recentRuns").get(0).path("totalElapsed").isNumber()).isTrue();
    JsonNode events = JSON.readTree(sample.get("/actuator/zeocore/events").body());
    assertThat(events.path("capacity").asInt()).isPositive();
    assertThat(events.path("events").toString()).contains("\"policy\":\"summarize\"")
        .doesNotContain("warm up the metrics");
    assertThat(sample.get("/actuator/zeocore/no-such-policy").statusCode()).isEqualTo(404);
  }

  @Test
  void storeFileIsPrivateToTheOwner() throws Exception {
    assertThat(Files.getPosixFilePermissions(DATA_DIR.resolve("zeocore.db")))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.getPosixFilePermissions(DATA_DIR.resolve("demo-issuer/private.pem")))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
  }
}
