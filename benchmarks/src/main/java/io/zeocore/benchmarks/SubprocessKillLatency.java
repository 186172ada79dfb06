package io.zeocore.benchmarks;

import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Item 4, a plain measurement (not JMH): how long after its deadline a subprocess attempt leaves no process of its tree
 * running, for a child that ignores {@code SIGTERM} and has a grandchild that inherits that.
 *
 * <p>The child is a {@code /bin/sh} script: {@code trap '' TERM}, start {@code /bin/sleep 1000} in the background, write
 * both pids to a file, {@code wait}. Each run calls it through the runner with the given attempt timeout and
 * termination grace and must end {@code TIMEOUT}. Latency = the attempt's duration in its {@link AttemptRecord} minus
 * the attempt timeout (the record's start is a few µs before the target's own clock starts, so this overstates
 * slightly), plus however long after the runner returned the two pids were still seen running in {@code /proc}
 * (zombies count as gone; expected zero). A run whose pid file is missing (the child had not reached its trap by the
 * deadline) is counted and left out. Prints one JSON object with p50, p99 (nearest rank) and the maximum.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.zeocore.benchmarks.SubprocessKillLatency [runs] [timeoutMs] [graceMs]}
 */
public final class SubprocessKillLatency {

  private static final String SCRIPT = String.join("\n",
      "#!/bin/sh",
      "trap '' TERM",
      "/bin/sleep 1000 &",
      "echo \"$$ $!\" > \"$1\"",
      "wait",
      "");

  private SubprocessKillLatency() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    Duration timeout = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 200);
    Duration grace = Duration.ofMillis(args.length > 2 ? Long.parseLong(args[2]) : 200);
    Path directory = Files.createTempDirectory("zeocore-kill-latency",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path script = directory.resolve("ignores-term.sh");
    Files.writeString(script, SCRIPT, StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));

    ResilientRunner runner = ResilientRunner.create();
    ExecutionPolicy policy = Contenders.zeoCorePolicy(timeout, timeout.plusSeconds(30), "child");
    List<Double> latenciesMs = new ArrayList<>();
    int notReady = 0;
    int treesLeft = 0;
    for (int i = 0; i < runs; i++) {
      Path pids = directory.resolve("run-" + i + ".pids");
      SubprocessInvocation invocation = SubprocessInvocation.of(script.toString(), pids.toString())
          .withTerminationGrace(grace);
      Map<String, SyncExecutionTarget<String>> targets = Map.of("child",
          SubprocessTargets.subprocessTarget("child", invocation, String.class, stdout -> "exited"));
      ResilientExecutionResult<String> result = runner.runSync(policy, targets);
      long returned = System.nanoTime();
      if (result.failureKind() != FailureKind.TIMEOUT || result.attempts().size() != 1) {
        throw new IllegalStateException("run " + i + " did not time out: " + result);
      }
      long[] tree = readPids(pids);
      if (tree == null) {
        notReady++;
        continue;
      }
      long stillRunningNanos = awaitGone(tree, returned);
      if (stillRunningNanos < 0) {
        treesLeft++;
        killLeftovers(tree);
        continue;
      }
      AttemptRecord attempt = result.attempts().get(0);
      long beyondDeadline = attempt.duration().minus(attempt.timeout()).toNanos() + stillRunningNanos;
      latenciesMs.add(beyondDeadline / 1e6);
    }
    Collections.sort(latenciesMs);
    System.out.println(String.format(Locale.ROOT,
        "{\"runs\":%d,\"measured\":%d,\"notReadyAtDeadline\":%d,\"treesLeftRunning\":%d,\"timeoutMs\":%d,"
            + "\"graceMs\":%d,\"p50Ms\":%.2f,\"p99Ms\":%.2f,\"maxMs\":%.2f,\"minMs\":%.2f,\"latenciesMs\":%s}",
        runs, latenciesMs.size(), notReady, treesLeft, timeout.toMillis(), grace.toMillis(),
        percentile(latenciesMs, 50), percentile(latenciesMs, 99), last(latenciesMs),
        latenciesMs.isEmpty() ? Double.NaN : latenciesMs.get(0), format(latenciesMs)));
  }

  /** The child's and the grandchild's pids, or {@code null} when the child never wrote them. */
  private static long[] readPids(Path file) throws IOException {
    try {
      String[] parts = Files.readString(file, StandardCharsets.US_ASCII).trim().split(" ");
      return parts.length == 2 ? Arrays.stream(parts).mapToLong(Long::parseLong).toArray() : null;
    } catch (NoSuchFileException notWritten) {
      return null;
    }
  }

  /** How long after {@code since} every pid was seen gone; negative when one still ran after 5 s. */
  private static long awaitGone(long[] pids, long since) throws IOException, InterruptedException {
    long giveUp = since + Duration.ofSeconds(5).toNanos();
    while (true) {
      boolean running = false;
      for (long pid : pids) {
        running |= runs(pid);
      }
      long now = System.nanoTime();
      if (!running) {
        return Math.max(0, now - since);
      }
      if (now > giveUp) {
        return -1;
      }
      Thread.sleep(1);
    }
  }

  /** Whether {@code pid} exists and is not a zombie ({@code /proc/<pid>/stat}'s state after the command name). */
  private static boolean runs(long pid) throws IOException {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (NoSuchFileException gone) {
      return false;
    }
  }

  private static void killLeftovers(long[] pids) {
    for (long pid : pids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private static double percentile(List<Double> sorted, int percent) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  private static double last(List<Double> sorted) {
    return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() - 1);
  }

  private static String format(List<Double> values) {
    StringBuilder json = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      json.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", values.get(i)));
    }
    return json.append(']').toString();
  }
}
