package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile children under a 700 ms deadline (grace 300 ms): a child that ignores SIGTERM, a tree of background sleepers
 * in the child's group, a flood of stdout against a 64 KiB cap, a child that never reads 4 MiB of stdin. A failure: the
 * call ended {@code SUCCEEDED}; it returned more than 3 s after the deadline (a generous bound on a loaded machine:
 * the behaviour is the deadline, not a speed); or any process the child started still runs 1 s after the return.
 * A {@code setsid} grandchild that ignores SIGTERM and SIGHUP under a child that ignores SIGTERM, eight at once, is
 * counted separately (the target is the grace period plus 100 ms; the assertion is generous, the figure is the
 * behaviour). So are large inputs: a 64 MiB stdin that is never read, 200 000 arguments and one 4 MiB argument, whose
 * heap allocation (every thread) must stay within one copy of the input plus a fixed allowance, and after which the
 * JVM's threads and file descriptors must be back to their count before.
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

  @Test
  void setsidGrandchildIgnoringTermAndHupUnderAChildIgnoringTermIsGoneSoonAfterTheGracePeriod() throws Exception {
    int rounds = Figures.scaled(3);
    int atOnce = 8;
    List<String> failures = new ArrayList<>();
    ExecutorService callers = Executors.newFixedThreadPool(atOnce);
    try {
      for (int round = 0; round < rounds; round++) {
        List<Future<String>> calls = new ArrayList<>();
        for (int caller = 0; caller < atOnce; caller++) {
          Path pids = Files.createDirectories(temp.resolve("stubborn-" + round + "-" + caller));
          calls.add(callers.submit(() -> stubbornTreeRun(pids)));
        }
        for (Future<String> call : calls) {
          String failure = call.get(60, TimeUnit.SECONDS);
          if (failure != null) {
            failures.add("round " + failures.size() + ": " + failure);
          }
        }
      }
    } finally {
      callers.shutdownNow();
    }
    Figures.record(SECTION, "setsid grandchild ignoring SIGTERM and SIGHUP under a child ignoring SIGTERM, 8 at once"
        + " (deadline 700 ms, grace 300 ms)", (long) rounds * atOnce, failures.size(),
        "ended SUCCEEDED, returned > 1 s after deadline + grace, or left a process of either session running");
    assertThat(failures).isEmpty();
  }

  /** One run of the stubborn tree; the failure, or {@code null}. */
  private static String stubbornTreeRun(Path pids) throws Exception {
    Path script = pids.resolve("child.sh");
    Files.writeString(script, "#!/bin/sh\ntrap '' TERM\necho $$ > " + pids + "/child\n"
        + "/usr/bin/setsid /bin/sh -c 'trap \"\" TERM HUP; echo $$ > " + pids + "/grandchild;"
        + " while :; do /bin/sleep 1; done' &\n"
        + "while :; do /bin/sleep 1; done\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    SubprocessInvocation invocation = SubprocessInvocation.of(script.toString())
        .withTerminationGrace(Duration.ofMillis(300));
    long started = System.nanoTime();
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(deadline700(), Map.of("hostile",
        SubprocessTargets.subprocessTarget("hostile", invocation, String.class,
            stdout -> new String(stdout, StandardCharsets.UTF_8))));
    long tookMillis = (System.nanoTime() - started) / 1_000_000;
    Thread.sleep(1_000);
    List<Long> alive = new ArrayList<>();
    for (String name : List.of("child", "grandchild")) {
      Path file = pids.resolve(name);
      if (Files.exists(file)) {
        long leader = Long.parseLong(Files.readString(file).trim());
        alive.addAll(runningInSession(leader));
      }
    }
    alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    if (result.outcome() == ExecutionOutcome.SUCCEEDED || tookMillis > 700 + 300 + 1_000 || !alive.isEmpty()) {
      return result.outcome() + " after " + tookMillis + " ms, still running " + alive;
    }
    return null;
  }

  @Test
  void largeInputsAreHeldOnceAndLeaveNoThreadOrDescriptorBehind() throws Exception {
    Path sleeper = temp.resolve("sleeper.sh");
    Files.writeString(sleeper, "#!/bin/sh\nexec /bin/sleep 60\n");
    Files.setPosixFilePermissions(sleeper, PosixFilePermissions.fromString("rwx------"));
    List<String> manyArguments = new ArrayList<>(List.of(sleeper.toString()));
    for (int i = 0; i < 200_000; i++) {
      manyArguments.add("argument-" + i);
    }
    String fourMebibytes = "x".repeat(4 * 1024 * 1024);
    byte[] request = new byte[64 * 1024 * 1024]; // the caller's own array, allocated before any measurement
    long mib = 1024 * 1024;
    // name -> (invocation factory, allowed heap allocation for building it and one call)
    Map<String, Map.Entry<Supplier<SubprocessInvocation>, Long>> scenarios = Map.of(
        "64 MiB stdin never read (allowed: the one copy + 16 MiB)", Map.entry(() -> SubprocessInvocation
            .of(sleeper.toString()).withInputBytes(request).withTerminationGrace(Duration.ZERO)
            .withMaxOutputBytes(16 * 1024 * 1024), 64 * mib + 16 * mib),
        "200 000 arguments (allowed: 32 MiB)", Map.entry(() -> SubprocessInvocation.of(manyArguments)
            .withTerminationGrace(Duration.ZERO).withMaxOutputBytes(16 * 1024 * 1024), 32 * mib),
        "one 4 MiB argument, refused by the kernel (allowed: 24 MiB)", Map.entry(() -> SubprocessInvocation
            .of(sleeper.toString(), fourMebibytes).withTerminationGrace(Duration.ZERO), 24 * mib));
    ResilientRunner runner = ResilientRunner.create();
    runner.runSync(deadline700(), Map.of("hostile", target(SubprocessInvocation.of(sleeper.toString())))); // warm-up
    for (Map.Entry<String, Map.Entry<Supplier<SubprocessInvocation>, Long>> scenario : scenarios.entrySet()) {
      // one unmeasured run of each scenario first: the first use of a code path may load classes from a jar the JVM
      // then opens for good (one descriptor more, once), which is not a leak of the run
      runner.runSync(deadline700(), Map.of("hostile", target(scenario.getValue().getKey().get())));
      int runs = Figures.scaled(3);
      List<String> failures = new ArrayList<>();
      for (int run = 0; run < runs; run++) {
        Thread.sleep(200);
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        long descriptorsBefore = openDescriptors();
        long allocatedBefore = allocatedByEveryThread();
        SubprocessInvocation invocation = scenario.getValue().getKey().get();
        ResilientExecutionResult<String> result = runner.runSync(deadline700(), Map.of("hostile", target(invocation)));
        long allocated = allocatedByEveryThread() - allocatedBefore;
        invocation = null;
        int threadsAfter = settledThreadCount(threadsBefore);
        long descriptorsAfter = openDescriptors();
        if (result.outcome() == ExecutionOutcome.SUCCEEDED || allocated > scenario.getValue().getValue()
            || threadsAfter > threadsBefore || descriptorsAfter > descriptorsBefore) {
          failures.add("run " + run + ": " + result.outcome() + ", allocated " + allocated / mib + " MiB, threads "
              + threadsBefore + " -> " + threadsAfter + ", descriptors " + descriptorsBefore + " -> "
              + descriptorsAfter);
        }
      }
      Figures.record(SECTION, scenario.getKey() + " (deadline 700 ms)", runs, failures.size(),
          "ended SUCCEEDED, allocated more heap than allowed, or left a thread or file descriptor behind");
      assertThat(failures).as(scenario.getKey()).isEmpty();
    }
  }

  private static ExecutionPolicy deadline700() {
    return ExecutionPolicy.builder().totalTimeout(Duration.ofMillis(700)).attemptTimeout(Duration.ofMillis(700))
        .attemptTargets("hostile").build();
  }

  private static io.zeocore.execution.SyncExecutionTarget<String> target(SubprocessInvocation invocation) {
    return SubprocessTargets.subprocessTarget("hostile", invocation, String.class,
        stdout -> new String(stdout, StandardCharsets.UTF_8));
  }

  /** Heap bytes allocated so far by every live thread (the I/O pool's threads stay alive between calls). */
  private static long allocatedByEveryThread() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long total = 0;
    for (long id : threads.getAllThreadIds()) {
      total += Math.max(0, threads.getThreadAllocatedBytes(id));
    }
    return total;
  }

  /** The live thread count once it is back to {@code baseline} (or after 5 s): I/O threads end when their pipe does. */
  private static int settledThreadCount(int baseline) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    int count;
    while ((count = ManagementFactory.getThreadMXBean().getThreadCount()) > baseline && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    return count;
  }

  private static long openDescriptors() throws java.io.IOException {
    try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
      return descriptors.count() - 1; // the listing's own descriptor
    }
  }

  /** The running processes of session {@code session} (read from {@code /proc}). */
  private static List<Long> runningInSession(long session) throws java.io.IOException {
    List<Long> members = new ArrayList<>();
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      for (Path entry : entries.filter(e -> e.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String stat = Files.readString(entry.resolve("stat"));
          String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          if (Long.parseLong(fields[3]) == session && !fields[0].equals("Z")) {
            members.add(Long.parseLong(entry.getFileName().toString()));
          }
        } catch (java.io.IOException gone) {
          // exited meanwhile
        }
      }
    }
    return members;
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
