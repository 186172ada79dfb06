package io.zeocore.subprocess;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The few fields of Linux {@code /proc/<pid>/stat} that process containment needs. Reading {@code /proc} is the only
 * way to tell a running process from a zombie ({@link ProcessHandle#isAlive()} is true for both) and to learn process
 * group and session ids without native code.
 *
 * @param pid the process id
 * @param state the one-letter state ({@code R}, {@code S}, {@code D}, {@code T}, {@code Z}, {@code X}, …)
 * @param processGroup the process-group id
 * @param session the session id ({@code pid} itself for a session leader, one that called {@code setsid})
 */
record ProcStat(long pid, char state, long processGroup, long session) {

  private static final String PROC = "/proc";

  /** A stat line is a few hundred bytes (the command name is at most 64); a longer read is retried whole. */
  private static final int STAT_BUFFER_BYTES = 1024;

  /** Whether the process still runs code: anything but a zombie ({@code Z}) or a dead entry ({@code X}). */
  boolean running() {
    return state != 'Z' && state != 'X';
  }

  /** The stat of {@code pid}, or empty when no such process exists (never started, or exited and reaped). */
  static Optional<ProcStat> read(long pid) {
    return read(PROC + "/" + pid + "/stat");
  }

  /** The stat of the current process (the JVM), or empty when {@code /proc} is unavailable. */
  static Optional<ProcStat> self() {
    return read(PROC + "/self/stat");
  }

  /** Whether {@code pid} exists and is not a zombie. */
  static boolean isRunning(long pid) {
    return read(pid).map(ProcStat::running).orElse(false);
  }

  /** Whether {@code pid} leads its own session: it called {@code setsid}, so its session id is its pid. */
  boolean leadsSession() {
    return session == pid;
  }

  /**
   * The running (non-zombie) processes whose session is one of {@code sessions}. Scans {@code /proc}; costs well under
   * a millisecond on a machine with a few hundred processes, so it is used only while terminating.
   *
   * @return the members found, or empty when {@code /proc} could not be listed (see {@link #anyRunningIn})
   */
  static List<ProcStat> runningIn(Set<Long> sessions) {
    List<ProcStat> members = new ArrayList<>();
    scan(sessions, members);
    return members;
  }

  /**
   * Whether any running process belongs to one of {@code sessions}. When {@code /proc} cannot be listed the answer is
   * {@code true}: the sessions cannot be proved empty, so the caller escalates.
   */
  static boolean anyRunningIn(Set<Long> sessions) {
    return !scan(sessions, null);
  }

  /** Collects members into {@code into} (or stops at the first when it is {@code null}); whether none was found. */
  private static boolean scan(Set<Long> sessions, @Nullable List<ProcStat> into) {
    if (sessions.isEmpty()) {
      return true;
    }
    String[] entries = new File(PROC).list();
    if (entries == null) {
      return false; // cannot prove the sessions empty
    }
    boolean none = true;
    for (String name : entries) {
      if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
        continue;
      }
      Optional<ProcStat> stat = read(PROC + "/" + name + "/stat");
      if (stat.isPresent() && sessions.contains(stat.get().session) && stat.get().running()) {
        if (into == null) {
          return false;
        }
        into.add(stat.get());
        none = false;
      }
    }
    return none;
  }

  /** One open, one read, one close: cheap enough to scan every process while a tree is being stopped. */
  private static Optional<ProcStat> read(String statFile) {
    byte[] buffer = new byte[STAT_BUFFER_BYTES];
    int length = 0;
    try (FileInputStream in = new FileInputStream(statFile)) {
      int read;
      while (length < buffer.length && (read = in.read(buffer, length, buffer.length - length)) > 0) {
        length += read;
      }
      if (length == buffer.length) {
        buffer = Files.readAllBytes(Path.of(statFile));
        length = buffer.length;
      }
    } catch (IOException | RuntimeException gone) {
      return Optional.empty();
    }
    return parse(new String(buffer, 0, length, StandardCharsets.ISO_8859_1));
  }

  /**
   * Parses {@code pid (comm) state ppid pgrp session …}. The command name may contain spaces and parentheses, so the
   * fields are located after the last {@code ')'}.
   */
  static Optional<ProcStat> parse(String line) {
    int open = line.indexOf(" (");
    int close = line.lastIndexOf(')');
    if (open <= 0 || close < open || close + 2 >= line.length()) {
      return Optional.empty();
    }
    String[] fields = line.substring(close + 2).split(" ", 5);
    if (fields.length < 4 || fields[0].length() != 1) {
      return Optional.empty();
    }
    try {
      long pid = Long.parseLong(line.substring(0, open));
      return Optional.of(
          new ProcStat(pid, fields[0].charAt(0), Long.parseLong(fields[2]), Long.parseLong(fields[3])));
    } catch (NumberFormatException malformed) {
      return Optional.empty();
    }
  }
}
