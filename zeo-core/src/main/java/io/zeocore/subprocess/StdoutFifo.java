package io.zeocore.subprocess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * Named pipes that carry a child's stdout to a reader ZeoCore owns from before the spawn.
 *
 * <p>With {@code ProcessBuilder.Redirect.PIPE} the JDK's reaper thread, when the direct child exits, drains what the
 * pipe holds at that instant into memory and closes it; a reader that was not yet reading then sees those bytes and
 * end-of-file although a leftover process still holds the pipe and writes more (which then dies of {@code SIGPIPE}).
 * A FIFO opened by ZeoCore's reader is never touched by the reaper: end-of-file means that every process holding the
 * write end has closed it. Each FIFO is created with {@code mkfifo -m 600} in a directory of mode 0700 private to this
 * JVM, opened once by the reader and the child's redirect, and unlinked as soon as the reader has opened it.
 */
final class StdoutFifo {

  private static final Logger log = LoggerFactory.getLogger(StdoutFifo.class);
  private static final long TOOL_TIMEOUT_MILLIS = 2_000;
  private static final AtomicLong NUMBER = new AtomicLong();
  private static final @Nullable String MKFIFO = Files.isExecutable(Path.of("/usr/bin/mkfifo")) ? "/usr/bin/mkfifo"
      : Files.isExecutable(Path.of("/bin/mkfifo")) ? "/bin/mkfifo" : null;
  private static volatile @Nullable Path directory;
  private static volatile boolean warned;

  private StdoutFifo() {}

  /** A new FIFO, or empty when none can be made here (then the JDK pipe is used, see {@link ChildProcess}). */
  static Optional<Path> create() {
    if (MKFIFO == null) {
      return Optional.empty();
    }
    try {
      Path fifo = directory().resolve("stdout-" + NUMBER.incrementAndGet());
      ProcessBuilder builder = new ProcessBuilder(MKFIFO, "-m", "600", "--", fifo.toString())
          .redirectInput(ProcessBuilder.Redirect.DISCARD.file())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().clear();
      Process tool = builder.start();
      boolean interrupted = false;
      try {
        while (true) {
          try {
            if (!tool.waitFor(TOOL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
              tool.destroyForcibly();
              return unavailable();
            }
            break;
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      return tool.exitValue() == 0 ? Optional.of(fifo) : unavailable();
    } catch (IOException | RuntimeException failed) {
      return unavailable();
    }
  }

  private static Optional<Path> unavailable() {
    if (!warned) {
      warned = true;
      log.warn("ZeoCore subprocess targets: could not create a FIFO for a child's stdout; using the JDK pipe");
    }
    return Optional.empty();
  }

  /** This JVM's private directory of FIFOs (created 0700 on first use, removed at exit when empty). */
  static Path directory() throws IOException {
    Path dir = directory;
    if (dir == null) {
      synchronized (StdoutFifo.class) {
        dir = directory;
        if (dir == null) {
          dir = Files.createTempDirectory("zeocore-stdout-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
          dir.toFile().deleteOnExit();
          directory = dir;
        }
      }
    }
    return dir;
  }
}
