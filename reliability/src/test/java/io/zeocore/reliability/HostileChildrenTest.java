package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile children under a 700 ms deadline (grace 300 ms): a child that ignores SIGTERM, a tree of background sleepers
 * in the child's group, a flood of stdout against a 64 KiB cap, a child that never reads 4 MiB of stdin. A failure: the
 * call ended {@code SUCCEEDED}; it returned more than 3 s after the deadline (a generous bound on a loaded machine:
 * the behaviour is the deadline, not a speed); or any process the child started still runs 1 s after the return.
 * (Item 0 and 3 cases of issue 19 — early success with truncated output, {@code setsid} grandchildren — are covered
 * where they are fixed.)
 */
class HostileChildrenTest {

  static final String SECTION = "Hostile children (subprocess targets)";

  @TempDir
  Path temp;

  @Test
  void hostileChildrenAreStoppedAtTheDeadlineAndLeaveNothingRunning() throws Exception {
    Map<String, String> scenarios = Map.of(
        "child that ignores SIGTERM",
        "trap '' TERM\necho $$ > PIDS/a\n/bin/sleep 60 &\necho $! > PIDS/b\nwait\n/bin/sleep 60",
        "child with background sleepers in its group",
        "echo $$ > PIDS/a\nfor i in 1 2 3; do /bin/sleep 60 & echo $! > PIDS/s$i; done\n/bin/sleep 60",
        "child that floods stdout past the cap", "echo $$ > PIDS/a\nexec /bin/cat /dev/zero",
        "child that never reads its 4 MiB stdin", "echo $$ > PIDS/a\n/bin/sleep 60");
    int runsPerScenario = Figures.scaled(5);
    for (Map.Entry<String, String> scenario : scenarios.entrySet()) {
      List<String> failures = new ArrayList<>();
      for (int run = 0; run < runsPerScenario; run++) {
        Path pids = Files.createDirectories(temp.resolve(scenario.getKey().replace(' ', '-') + "-" + run));
        Path script = pids.resolve("child.sh");
        Files.writeString(script, "#!/bin/sh\n" + scenario.getValue().replace("PIDS", pids.toString()) + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        SubprocessInvocation invocation = SubprocessInvocation.of(script.toString())
            .withTerminationGrace(Duration.ofMillis(300)).withMaxOutputBytes(64 * 1024)
            .withInputBytes(scenario.getKey().contains("never reads") ? new byte[4 * 1024 * 1024] : new byte[0]);
        ExecutionPolicy policy = ExecutionPolicy.builder().totalTimeout(Duration.ofMillis(700))
            .attemptTimeout(Duration.ofMillis(700)).attemptTargets("hostile").build();
        long started = System.nanoTime();
        ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy, Map.of("hostile",
            SubprocessTargets.subprocessTarget("hostile", invocation, String.class,
                stdout -> new String(stdout, StandardCharsets.UTF_8))));
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        Thread.sleep(1_000);
        List<Long> alive = new ArrayList<>();
        try (Stream<Path> files = Files.list(pids)) {
          for (Path file : files.filter(f -> !f.getFileName().toString().endsWith(".sh")).toList()) {
            String text = Files.readString(file).trim();
            if (!text.isEmpty() && running(Long.parseLong(text))) {
              alive.add(Long.parseLong(text));
            }
          }
        }
        if (result.outcome() == ExecutionOutcome.SUCCEEDED || tookMillis > 700 + 3_000 || !alive.isEmpty()) {
          failures.add(scenario.getKey() + " run " + run + ": " + result.outcome() + " after " + tookMillis
              + " ms, still running " + alive);
          alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
      }
      Figures.record(SECTION, scenario.getKey() + " (deadline 700 ms, grace 300 ms)",
          runsPerScenario, failures.size(), "ended SUCCEEDED, returned > 3 s after the deadline, or left a process"
          + " running");
      assertThat(failures).isEmpty();
    }
  }

  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      return !state.equals("Z") && !state.equals("X");
    } catch (java.io.IOException gone) {
      return false;
    }
  }
}
