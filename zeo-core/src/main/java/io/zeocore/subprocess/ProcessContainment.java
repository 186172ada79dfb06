package io.zeocore.subprocess;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * How this JVM keeps a child's whole process tree within reach. Detected once per JVM.
 *
 * <p><b>Process groups (Linux).</b> The child is started as {@code /usr/bin/setsid -- <argv…>}. A JDK child is never
 * a process-group leader, so {@code setsid} (without {@code --fork}) calls {@code setsid(2)} and then execs the real
 * executable in place: the child's pid becomes its session and process-group id, and every descendant that does not
 * leave the group can be signalled at once with {@code kill(-pgid, sig)}. The JDK has no {@code killpg}, so group
 * signals are sent by running {@code /bin/kill -s SIG -- -<pgid>} (absolute path, no shell, empty environment, bounded
 * wait). Process group 0, 1, the JVM's own group and the JVM's pid are refused before any signal is sent.
 *
 * <p><b>Process tree (elsewhere, or Linux without {@code setsid}/{@code kill}/{@code /proc}).</b> The child is
 * started directly and terminated through {@link ProcessHandle}: the child and a snapshot of its descendants are
 * signalled one by one. A descendant whose parent already exited has been re-parented and is no longer found, so this
 * mode is weaker; a warning is logged once when Linux has to fall back to it.
 */
final class ProcessContainment {

  private static final Logger log = LoggerFactory.getLogger(ProcessContainment.class);

  /** How long one run of the {@code kill} tool may take before it is itself killed. */
  private static final long SIGNAL_TOOL_TIMEOUT_MILLIS = 2_000;

  static final ProcessContainment DETECTED = detect();

  /** The signals a group may receive. */
  enum Signal {
    TERM,
    KILL
  }

  private final @Nullable String setsid;
  private final @Nullable String kill;
  private final long jvmProcessGroup;
  private final long jvmPid;
  private final File nullDevice;
  private final boolean procFs;

  private ProcessContainment(@Nullable String setsid, @Nullable String kill, long jvmProcessGroup, long jvmPid,
      File nullDevice) {
    this.procFs = ProcStat.self().isPresent();
    this.setsid = setsid;
    this.kill = kill;
    this.jvmProcessGroup = jvmProcessGroup;
    this.jvmPid = jvmPid;
    this.nullDevice = nullDevice;
  }

  /** Containment by process group through the given launcher and signal tool. */
  static ProcessContainment processGroups(String setsid, String kill, long jvmProcessGroup) {
    return new ProcessContainment(setsid, kill, jvmProcessGroup, ProcessHandle.current().pid(), new File("/dev/null"));
  }

  /** Containment by {@link ProcessHandle} tree only (the fallback off Linux). */
  static ProcessContainment processTree() {
    boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    return new ProcessContainment(null, null, -1, ProcessHandle.current().pid(),
        new File(windows ? "NUL" : "/dev/null"));
  }

  private static ProcessContainment detect() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.startsWith("linux")) {
      return processTree();
    }
    Optional<String> setsid = firstExecutable("/usr/bin/setsid", "/bin/setsid");
    Optional<String> kill = firstExecutable("/bin/kill", "/usr/bin/kill");
    Optional<ProcStat> self = ProcStat.self();
    if (setsid.isEmpty() || kill.isEmpty() || self.isEmpty()) {
      log.warn("ZeoCore subprocess targets: setsid, kill or /proc is missing on this Linux machine; "
          + "falling back to ProcessHandle tree termination, which cannot reach re-parented descendants");
      return processTree();
    }
    return processGroups(setsid.get(), kill.get(), self.get().processGroup());
  }

  private static Optional<String> firstExecutable(String... candidates) {
    for (String candidate : candidates) {
      Path path = Path.of(candidate);
      if (Files.isRegularFile(path) && Files.isExecutable(path)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Whether children get their own process group (the exact Linux mode). */
  boolean usesProcessGroups() {
    return setsid != null;
  }

  /** The command that starts {@code argv}: behind the {@code setsid} launcher when process groups are used. */
  List<String> command(List<String> argv) {
    if (!usesProcessGroups()) {
      return argv;
    }
    List<String> command = new ArrayList<>(argv.size() + 2);
    command.add(setsid);
    command.add("--");
    command.addAll(argv);
    return command;
  }

  /** Whether {@code /proc/<pid>/stat} can be read to tell running processes from zombies. */
  boolean hasProcFs() {
    return procFs;
  }

  /** The file children read as an empty stdin. */
  File nullDevice() {
    return nullDevice;
  }

  /**
   * Sends {@code signal} to every process in group {@code processGroup}. Waits at most two seconds for the signal
   * tool.
   *
   * @return whether the tool reported that at least one process was signalled
   * @throws IllegalStateException when this containment does not use process groups
   * @throws IllegalArgumentException when {@code processGroup} is 0, 1, negative, the JVM's own group or pid
   */
  boolean signalGroup(long processGroup, Signal signal) {
    if (!usesProcessGroups()) {
      throw new IllegalStateException("process groups are not used on this platform");
    }
    requireForeignGroup(processGroup);
    ProcessBuilder builder = new ProcessBuilder(kill, "-s", signal.name(), "--", "-" + processGroup)
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    Process tool;
    try {
      tool = builder.start();
    } catch (IOException | RuntimeException unavailable) {
      log.warn("ZeoCore subprocess targets: could not run {} to send SIG{} to a process group", kill, signal);
      return false;
    }
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SIGNAL_TOOL_TIMEOUT_MILLIS);
    try {
      while (true) {
        long remaining = deadline - System.nanoTime();
        try {
          if (tool.waitFor(Math.max(0, remaining), TimeUnit.NANOSECONDS)) {
            return tool.exitValue() == 0;
          }
          tool.destroyForcibly();
          log.warn("ZeoCore subprocess targets: {} did not finish sending SIG{} within {} ms", kill, signal,
              SIGNAL_TOOL_TIMEOUT_MILLIS);
          return false;
        } catch (InterruptedException e) {
          interrupted = true; // the signal must still be sent; the wait stays bounded by the deadline
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Refuses process groups that must never be signalled: 0 and below, init's, the JVM's own group and pid. */
  void requireForeignGroup(long processGroup) {
    if (processGroup <= 1) {
      throw new IllegalArgumentException("refusing to signal process group " + processGroup);
    }
    if (processGroup == jvmProcessGroup || processGroup == jvmPid) {
      throw new IllegalArgumentException("refusing to signal the JVM's own process group " + processGroup);
    }
  }
}
