package io.zeocore.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Child JVMs on this suite's class path, started under {@code umask 000}. */
final class Children {

  private Children() {}

  static Process start(Path log, Class<?> main, String... args) throws IOException {
    String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "umask 000 && exec \"$@\"", "sh", java,
        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
        main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** Waits for {@code file} to appear while {@code child} is alive; fails with the child's log otherwise. */
  static void awaitFile(Process child, Path file, Path log, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!Files.exists(file)) {
      if (!child.isAlive() || System.nanoTime() > deadline) {
        child.destroyForcibly();
        throw new AssertionError("child never reached its point (alive " + child.isAlive() + "): "
            + (Files.exists(log) ? Files.readString(log) : ""));
      }
      Thread.sleep(10);
    }
  }

  /** SIGKILL, then the exit status (137 = 128 + SIGKILL). */
  static int kill(Process child) throws Exception {
    child.destroyForcibly();
    if (!child.waitFor(20, TimeUnit.SECONDS)) {
      throw new AssertionError("a SIGKILLed child did not end");
    }
    return child.exitValue();
  }
}
