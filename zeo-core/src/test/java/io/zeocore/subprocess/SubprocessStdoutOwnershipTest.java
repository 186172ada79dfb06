package io.zeocore.subprocess;

import static io.zeocore.subprocess.ChildProcesses.context;
import static io.zeocore.subprocess.ChildProcesses.shellScript;
import static io.zeocore.subprocess.SubprocessTargets.subprocessTarget;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.SyncExecutionTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child that exits while a background job still holds its stdout, run many times at once so that the stdout reader
 * is sometimes late (issue 19, item 0): no such run may succeed with whatever the JDK drained from the pipe.
 */
class SubprocessStdoutOwnershipTest {

  private static final int CONCURRENT = 8;
  private static final int ROUNDS = 4;

  @TempDir
  Path dir;

  @Test
  void keepsAttemptRunningWhileBackgroundJobHoldsStdoutUnderLoad() throws Exception {
    Path script = shellScript(dir, "sleeper", "/bin/sleep 60 &\nexit 0");
    List<String> outcomes = runConcurrently(script, 16 * 1024 * 1024);

    assertThat(outcomes).as("every run ends at the deadline, none succeeds early")
        .containsOnly(FailureKind.TIMEOUT.name());
  }

  @Test
  void neverSucceedsWithTruncatedOutputWhileBackgroundJobFloodsStdoutUnderLoad() throws Exception {
    Path script = shellScript(dir, "flooder", "/bin/cat /dev/zero &\nexit 0");
    List<String> outcomes = runConcurrently(script, 16 * 1024 * 1024);

    assertThat(outcomes).as("the cap or the deadline ends every run, none succeeds with a part of the flood")
        .isSubsetOf(FailureKind.TIMEOUT.name(), FailureKind.MALFORMED_RESPONSE.name());
  }

  @Test
  void fastChildrenStillSucceedWithTheirWholeOutputUnderLoad() throws Exception {
    Path script = shellScript(dir, "fast", "echo complete-output");
    List<String> outcomes = runConcurrently(script, 1024);

    assertThat(outcomes).containsOnly("SUCCEEDED with 16 bytes");
  }

  private static List<String> runConcurrently(Path script, int cap) throws Exception {
    SyncExecutionTarget<byte[]> target = subprocessTarget("background-job",
        SubprocessInvocation.of(script.toString()).withTerminationGrace(Duration.ofMillis(300))
            .withMaxOutputBytes(cap),
        byte[].class, stdout -> stdout);
    ConcurrentLinkedQueue<String> outcomes = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int i = 0; i < CONCURRENT; i++) {
        runs.add(pool.submit(() -> {
          for (int round = 0; round < ROUNDS; round++) {
            try {
              byte[] stdout = target.invocation().invoke(context(Duration.ofMillis(700)));
              outcomes.add("SUCCEEDED with " + stdout.length + " bytes");
            } catch (AttemptError error) {
              outcomes.add(error.kind().name());
            } catch (Exception other) {
              outcomes.add(other.toString());
            }
          }
          return null;
        }));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return new ArrayList<>(outcomes);
  }
}
