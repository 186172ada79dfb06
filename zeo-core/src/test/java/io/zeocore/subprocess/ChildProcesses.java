package io.zeocore.subprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.CancellationToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

/**
 * Test helpers for real child processes: executable scripts in a temp directory, pid files the scripts publish
 * atomically, and an independent {@code /proc} reader to tell whether a pid still runs.
 */
final class ChildProcesses {

  private ChildProcesses() {}

  /** Writes an executable {@code /bin/sh} script. The child has no PATH: scripts use absolute paths. */
  static Path shellScript(Path dir, String name, String body) {
    return executable(dir.resolve(name), "#!/bin/sh\n" + body + "\n");
  }

  /** Writes {@code content} to {@code file} with mode 0755. */
  static Path executable(Path file, String content) {
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Shell code that publishes {@code value} into {@code dir/name} atomically (write a temp file, then rename). */
  static String publish(Path dir, String name, String value) {
    Path file = dir.resolve(name);
    return "echo " + value + " > " + file + ".tmp && /bin/mv " + file + ".tmp " + file;
  }

  /** Shell code that starts {@code /bin/sleep 60} in the background and publishes its pid into {@code dir/name}. */
  static String sleeperInTheBackground(Path dir, String name) {
    return "/bin/sleep 60 &\n" + publish(dir, name, "$!");
  }

  static long readPid(Path file) {
    try {
      return Long.parseLong(Files.readString(file).trim());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Fields of {@code /proc/<pid>/stat}, read independently of the code under test; {@code null} when absent. */
  static String[] stat(long pid) {
    String line;
    try {
      line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException gone) {
      return null;
    }
    // fields after "pid (comm) ": state ppid pgrp session ...
    return line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
  }

  /** Whether {@code pid} exists and is not a zombie. */
  static boolean running(long pid) {
    String[] fields = stat(pid);
    return fields != null && !fields[0].equals("Z") && !fields[0].equals("X");
  }

  static long processGroupOf(long pid) {
    String[] fields = stat(pid);
    assertThat(fields).as("process %d exists", pid).isNotNull();
    return Long.parseLong(fields[2]);
  }

  static long jvmProcessGroup() {
    return processGroupOf(ProcessHandle.current().pid());
  }

  static AttemptContext context(Duration timeout) {
    return context(timeout, CancellationToken.never());
  }

  static AttemptContext context(Duration timeout, CancellationToken token) {
    return new AttemptContext(1, "local-provider", timeout, timeout, token);
  }
}
