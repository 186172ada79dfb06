package io.zeocore.test;

import static io.zeocore.test.ZeoCoreAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's "Testing your plans" example is {@code SummaryPlanTest} below, character for character: this test
 * fails when the two differ, and surefire runs the example itself.
 */
class ReadmeTestingYourPlansTest {

  @Test
  void theReadmeExampleIsTheTestBelowAsWritten() throws Exception {
    Path dir = repository();
    String readme = Files.readString(dir.resolve("README.md"));
    int section = readme.indexOf("## Testing your plans");
    int start = readme.indexOf("```java\n", section) + "```java\n".length();
    String example = readme.substring(start, readme.indexOf("```", start));
    String source = Files.readString(dir.resolve(
        "zeo-core-test/src/test/java/io/zeocore/test/ReadmeTestingYourPlansTest.java"));
    assertThat(source).contains(example);
  }

  /** The repository's root: the first directory up from the module's that holds the README. */
  static Path repository() {
    Path dir = Path.of("").toAbsolutePath();
    while (!Files.exists(dir.resolve("README.md"))) {
      dir = dir.getParent();
    }
    return dir;
  }
}

// ---- README: "Testing your plans" (keep identical) ----

class SummaryPlanTest {

  private final VirtualTime time = new VirtualTime();
  private final ResilientRunner runner = ResilientRunner.builder().timeSource(time).build();

  private final ExecutionPolicy policy = ExecutionPolicy.builder().name("summarize")
      .totalTimeout(Duration.ofSeconds(30)).attemptTimeout(Duration.ofSeconds(8))
      .attemptTargets("primary", "primary", "fallback")
      .backoff(Duration.ofSeconds(4), Duration.ofSeconds(6))
      .build();

  @Test
  void fallsBackAfterATimeoutAndARateLimit() {
    ScriptedTarget<String> primary = ScriptedTarget.of("primary", String.class, time)
        .hangs()
        .rateLimited(Duration.ofSeconds(7));
    ScriptedTarget<String> fallback = ScriptedTarget.of("fallback", String.class, time)
        .answersAfter(Duration.ofSeconds(2), "a summary");

    ResilientExecutionResult<String> result = runner.runSync(policy,
        Map.of("primary", primary.sync(), "fallback", fallback.sync()));

    assertThat(result).answeredBy("fallback")
        .tookPath("primary:timeout", "primary:rate_limit", "fallback:succeeded")
        .waited(Duration.ofSeconds(4), Duration.ofSeconds(7)) // the Retry-After outweighs the 6 s backoff
        .tookExactly(Duration.ofSeconds(21));                  // 8 + 4 + 7 + 2, in a few milliseconds
    assertThat(result).attempt(1).failedWith(FailureKind.TIMEOUT).lasted(Duration.ofSeconds(8));
  }
}

/** The failure message the README shows for the example, checked against the real one. */
class ReadmeFailureMessageTest {

  @Test
  void theReadmeShowsTheMessageAFailingAssertionPrints() throws Exception {
    VirtualTime time = new VirtualTime();
    ResilientRunner runner = ResilientRunner.builder().timeSource(time).build();
    ExecutionPolicy policy = ExecutionPolicy.builder().name("summarize")
        .totalTimeout(Duration.ofSeconds(30)).attemptTimeout(Duration.ofSeconds(8))
        .attemptTargets("primary", "primary", "fallback")
        .backoff(Duration.ofSeconds(4), Duration.ofSeconds(6)).build();
    ResilientExecutionResult<String> result = runner.runSync(policy, Map.of(
        "primary", ScriptedTarget.of("primary", String.class, time).hangs().rateLimited(Duration.ofSeconds(7)).sync(),
        "fallback", ScriptedTarget.of("fallback", String.class, time)
            .answersAfter(Duration.ofSeconds(2), "a summary").sync()));
    AssertionError failure = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> assertThat(result).answeredBy("primary"));

    String readme = Files.readString(ReadmeTestingYourPlansTest.repository().resolve("README.md"));
    int shown = readme.indexOf("A failing assertion prints the run");
    int start = readme.indexOf("```\n", shown) + 4;
    String message = readme.substring(start, readme.indexOf("```", start)).strip();
    assertThat(failure.getMessage().strip().replace(System.lineSeparator(), "\n")).isEqualTo(message);
  }
}
