package io.zeocore.subprocess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The few fields of Linux {@code /proc/<pid>/stat} that process containment needs. Reading {@code /proc} is the only
 * way to tell a running process from a zombie ({@link ProcessHandle#isAlive()} is true for both) and to learn a
 * process-group id without native code.
 *
 * @param pid the process id
 * @param state the one-letter state ({@code R}, {@code S}, {@code D}, {@code T}, {@code Z}, {@code X}, …)
 * @param processGroup the process-group id
 */
record ProcStat(long pid, char state, long processGroup) {

  private static final Path PROC = Path.of("/proc");

  /** Whether the process still runs code: anything but a zombie ({@code Z}) or a dead entry ({@code X}). */
  boolean running() {
    return state != 'Z' && state != 'X';
  }

  /** The stat of {@code pid}, or empty when no such process exists (never started, or exited and reaped). */
  static Optional<ProcStat> read(long pid) {
    return read(PROC.resolve(Long.toString(pid)).resolve("stat"));
  }

  /** The stat of the current process (the JVM), or empty when {@code /proc} is unavailable. */
  static Optional<ProcStat> self() {
    return read(PROC.resolve("self").resolve("stat"));
  }

  /** Whether {@code pid} exists and is not a zombie. */
  static boolean isRunning(long pid) {
    return read(pid).map(ProcStat::running).orElse(false);
  }

  /**
   * Whether any running (non-zombie) process belongs to process group {@code processGroup}. Scans {@code /proc}; costs
   * well under a millisecond on a machine with a few hundred processes, so it is used only while terminating.
   */
  static boolean groupHasRunningMember(long processGroup) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        Optional<ProcStat> stat = read(entry.resolve("stat"));
        if (stat.isPresent() && stat.get().processGroup == processGroup && stat.get().running()) {
          return true;
        }
      }
      return false;
    } catch (IOException | RuntimeException unreadable) {
      // Cannot prove the group is empty: report it as possibly alive so that the caller escalates.
      return true;
    }
  }

  private static Optional<ProcStat> read(Path statFile) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(statFile);
    } catch (IOException | RuntimeException gone) {
      return Optional.empty();
    }
    return parse(new String(bytes, StandardCharsets.ISO_8859_1));
  }

  /**
   * Parses {@code pid (comm) state ppid pgrp …}. The command name may contain spaces and parentheses, so the fields
   * are located after the last {@code ')'}.
   */
  static Optional<ProcStat> parse(String line) {
    int open = line.indexOf(" (");
    int close = line.lastIndexOf(')');
    if (open <= 0 || close < open || close + 2 >= line.length()) {
      return Optional.empty();
    }
    String[] fields = line.substring(close + 2).split(" ", 4);
    if (fields.length < 3 || fields[0].length() != 1) {
      return Optional.empty();
    }
    try {
      long pid = Long.parseLong(line.substring(0, open));
      return Optional.of(new ProcStat(pid, fields[0].charAt(0), Long.parseLong(fields[2])));
    } catch (NumberFormatException malformed) {
      return Optional.empty();
    }
  }
}
