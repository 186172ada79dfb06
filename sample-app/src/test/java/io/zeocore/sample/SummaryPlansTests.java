package io.zeocore.sample;

import static io.zeocore.test.ZeoCoreAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.execution.TargetHealthChangedEvent;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.TargetHealth;
import io.zeocore.sample.summaries.SummaryService;
import io.zeocore.test.ScriptedHttpServer;
import io.zeocore.test.ScriptedHttpServer.Reply;
import io.zeocore.test.VirtualTime;
import io.zeocore.test.spring.CapturedEvents;
import io.zeocore.test.spring.ZeoCoreTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample's summary plan tested with ZeoCore's test kit: a scripted Ollama (a real loopback server) that answers
 * {@code 429 Retry-After: 30}, the sample's real subprocess provider as the fallback, the runner and its target health
 * on virtual time, and the kit's assertions on the runs. No real time is waited for the cooldown.
 */
@SpringBootTest
@ZeoCoreTest
class SummaryPlansTests {

  private static final ScriptedHttpServer OLLAMA = ScriptedHttpServer.start();
  private static final Path DATA_DIR;

  static {
    try {
      DATA_DIR = Files.createTempDirectory("zeocore-sample-kit");
    } catch (IOException failure) {
      throw new ExceptionInInitializerError(failure);
    }
    // read by the sample's workspace preparation, which runs before any property source of the test is added
    System.setProperty("sample.data-dir", DATA_DIR.toString());
  }

  @DynamicPropertySource
  static void scriptedOllama(DynamicPropertyRegistry properties) {
    properties.add("zeocore.llm.ollama.base-url", () -> OLLAMA.baseUrl().toString());
  }

  @BeforeEach
  void forgetEarlierRequests() {
    OLLAMA.reset();
  }

  @AfterAll
  static void stopOllama() {
    OLLAMA.close();
  }

  @Autowired
  SummaryService summaries;

  @Autowired
  VirtualTime time;

  @Autowired
  CapturedEvents events;

  @Autowired
  TargetHealth health;

  @Test
  void aRateLimitedOllamaCoolsForItsRetryAfterAndOneProbeReopensIt() {
    OLLAMA.replies(Reply.json(429, "{\"error\":\"slow down\"}").header("Retry-After", "30"));

    assertThat(summaries.summarize("summarize", "ZeoCore keeps plans bounded."))
        .answeredBy("text-stats")
        .tookPath("ollama-local:rate_limit", "text-stats:succeeded")
        .attempt(1).thenWaited(Duration.ofMillis(200)); // the policy's backoff, not the 30 s Retry-After
    assertThat(summaries.summarize("summarize", "A second request."))
        .tookPath("ollama-local:skipped", "text-stats:succeeded")
        .attempt(1).hasMachineCode(MachineCodes.TARGET_COOLING).dispatchStarted(false);
    assertThat(OLLAMA.requests()).as("the cooling Ollama was not called again").hasSize(1);

    time.advance(Duration.ofSeconds(30));
    OLLAMA.replies(Reply.json(200, "{\"model\":\"m\",\"done\":true,"
        + "\"message\":{\"role\":\"assistant\",\"content\":\"Plans stay bounded.\"}}"));
    assertThat(summaries.summarize("summarize", "After the cooldown.")).answeredBy("ollama-local")
        .hasValue("Plans stay bounded.");
    assertThat(health.states()).isEmpty();
    assertThat(events.targetHealthChanges()).extracting(event -> event.change().transition())
        .containsExactly(TargetHealth.Transition.COOLING_STARTED, TargetHealth.Transition.PROBE_STARTED,
            TargetHealth.Transition.COOLING_ENDED);
    assertThat(events.targetHealthChanges()).allSatisfy(
        (TargetHealthChangedEvent event) -> assertThat(event.change().cause()).isEqualTo(FailureKind.RATE_LIMIT));
  }

  @Test
  void anOllamaThatIsNotThereFallsBackAtOnceWithoutCoolingAnything() {
    OLLAMA.replies(Reply.json(500, "{\"error\":\"model not loaded\"}"));
    assertThat(summaries.summarize("summarize", "Hello.")).answeredBy("text-stats")
        .tookPath("ollama-local:transient", "text-stats:succeeded");
    assertThat(health.states()).as("one 500 cools nothing by default").isEmpty();
    assertThat(events.runs()).hasSize(1);
  }
}
