package io.zeocore.subprocess;

import io.zeocore.execution.CancellationToken;
import io.zeocore.internal.NumberedDaemonThreads;
import io.zeocore.internal.SaturatingDurations;
import io.zeocore.subprocess.ProcessContainment.Signal;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One started child and everything needed to stop it: its stdout reader, its stdin writer, the descendants seen so far
 * and the termination sequence. Used by one attempt thread only (the I/O runs on pool threads).
 *
 * <p>The attempt thread never touches the child's streams: {@code Process.destroy()} and {@code close()} on a pipe
 * stream synchronize on the stream and would block behind a writer stuck on a full pipe. Signals go through
 * {@link ProcessHandle} and the group signal tool; the reader and writer close their own streams when they finish.
 */
final class ChildProcess {

  /** Why waiting for the child ended. */
  enum Ending {
    /** The child exited and its stdout reached end-of-file within the cap. */
    EXITED,
    /** The attempt's deadline passed first. */
    TIMED_OUT,
    /** The cancellation token was observed cancelled first. */
    CANCELLED,
    /** stdout exceeded {@code maxOutputBytes}. */
    OUTPUT_OVERFLOW,
    /** Reading stdout failed. */
    OUTPUT_UNREADABLE
  }

  private static final Logger log = LoggerFactory.getLogger(ChildProcess.class);

  private static final long HANDSHAKE_FIRST_SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(250);
  private static final long HANDSHAKE_MAX_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long TRACK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long TREE_POLL_FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long TREE_POLL_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  private static final long KILL_CONFIRM_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long FIRST_KILL_ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  private static final long IO_JOIN_AFTER_EXIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long IO_JOIN_AFTER_KILL_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final int INITIAL_BUFFER_BYTES = 8192;
  private static final int STDIN_SLICE_BYTES = 64 * 1024;

  /**
   * Pool threads for stdout readers and stdin writers. Two stay parked once started, so that a sequential caller's
   * reader is a hand-off rather than a thread start; more are started on demand and end after 30 s idle.
   */
  private static final ExecutorService IO_THREADS = new ThreadPoolExecutor(2, Integer.MAX_VALUE, 30,
      TimeUnit.SECONDS, new SynchronousQueue<>(), new NumberedDaemonThreads("zeocore-subprocess-io-"));

  private final Process process;
  private final ProcessHandle handle;
  private final long pid;
  private final ProcessContainment containment;
  private final long graceNanos;
  private final long pollNanos;
  private final CompletableFuture<CapturedOutput> stdout;
  private final CompletableFuture<Void> stdin;
  private final Map<Long, ProcessHandle> tracked = new LinkedHashMap<>();
  /**
   * The sessions whose every member belongs to this child's tree: the child's own (the launcher made it a session
   * leader) and that of each recorded descendant that called {@code setsid}. Only this tree's processes can join
   * them, and Linux does not reuse a pid while it is still some process's session id.
   */
  private final Set<Long> sessions = new LinkedHashSet<>();
  private boolean groupSettled;
  private boolean terminated;
  private boolean interruptedWhileStopping;
  private boolean stdoutLost;

  private ChildProcess(Process process, CompletableFuture<CapturedOutput> stdout, SubprocessInvocation invocation,
      ProcessContainment containment) {
    this.process = process;
    this.stdout = stdout;
    this.handle = process.toHandle();
    this.pid = process.pid();
    this.containment = containment;
    this.graceNanos = SaturatingDurations.toNanos(invocation.terminationGrace());
    this.pollNanos = SaturatingDurations.toNanos(invocation.cancellationPoll());
    this.groupSettled = !containment.usesProcessGroups();
    if (containment.usesProcessGroups()) {
      sessions.add(pid);
    }
    byte[] input = invocation.inputBytesUnsafe();
    if (input.length == 0) {
      this.stdin = CompletableFuture.completedFuture(null);
    } else {
      OutputStream in = process.getOutputStream();
      this.stdin = CompletableFuture.runAsync(() -> writeAll(in, input), IO_THREADS);
    }
  }

  /**
   * Starts the child: stdout is a FIFO created for this child and read with a cap by a reader that opens it before the
   * child can write (see {@link StdoutFifo}; the JDK pipe, taken by a reader parked before the spawn, where no FIFO can
   * be made), stderr goes to the null device (discarded without a thread or a buffer), stdin is a pipe fed from its
   * own thread, or the null device when there is no input.
   */
  static ChildProcess start(ProcessBuilder builder, SubprocessInvocation invocation, ProcessContainment containment)
      throws IOException {
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.redirectInput(invocation.inputBytesUnsafe().length == 0
        ? ProcessBuilder.Redirect.from(containment.nullDevice())
        : ProcessBuilder.Redirect.PIPE);
    int cap = invocation.maxOutputBytes();
    Optional<Path> fifo = containment.usesProcessGroups() ? StdoutFifo.create() : Optional.empty();
    CompletableFuture<Process> started = new CompletableFuture<>();
    CompletableFuture<CapturedOutput> stdout;
    if (fifo.isPresent()) {
      builder.redirectOutput(ProcessBuilder.Redirect.to(fifo.get().toFile()));
      stdout = CompletableFuture.supplyAsync(() -> readFifo(fifo.get(), cap), IO_THREADS);
    } else {
      builder.redirectOutput(ProcessBuilder.Redirect.PIPE);
      stdout = CompletableFuture.supplyAsync(() -> readCapped(started.join(), cap), IO_THREADS);
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException | RuntimeException spawnFailed) {
      started.completeExceptionally(spawnFailed); // releases the waiting reader
      fifo.ifPresent(ChildProcess::releaseFifoReader);
      awaitReaderClosed(stdout); // so that a failed spawn leaves no descriptor open when the attempt returns
      fifo.ifPresent(ChildProcess::deleteQuietly);
      throw spawnFailed;
    }
    started.complete(process);
    return new ChildProcess(process, stdout, invocation, containment);
  }

  /**
   * Waits until the child has exited and its stdout is complete, the deadline passes, the token is cancelled, or
   * stdout overflows. Until the child leads its own process group ({@code /proc/<pid>/stat} shows pgid = pid, or the
   * child is gone), the wait is sliced finely (250 µs doubling to 1 ms) to confirm the group; then it is sliced by
   * the cancellation poll. Descendants are recorded every 100 ms while the child runs, so that one that later leaves
   * the group (calls {@code setsid}) can still be killed by pid.
   *
   * @param deadline a {@link System#nanoTime()} value
   */
  Ending await(long deadline, CancellationToken cancellation) throws InterruptedException {
    long handshakeSlice = HANDSHAKE_FIRST_SLICE_NANOS;
    long nextTrack = System.nanoTime() + TRACK_INTERVAL_NANOS;
    while (true) {
      if (stdout.isDone()) {
        Optional<CapturedOutput> output = capturedOutput();
        if (output.isEmpty()) {
          return Ending.OUTPUT_UNREADABLE;
        }
        if (output.get().overflowed()) {
          return Ending.OUTPUT_OVERFLOW;
        }
        if (!process.isAlive() && !stdoutLost) {
          if (output.get().owned()) {
            return Ending.EXITED;
          }
          trackDescendants();
          if (!treeGone()) {
            // The JDK may have drained the pipe while a leftover still held it: what it kept may be truncated, and
            // a held stdout means the attempt runs until its deadline (then the tree is stopped).
            stdoutLost = true;
          } else {
            return Ending.EXITED;
          }
        }
      }
      if (cancellation.isCancelled()) {
        return Ending.CANCELLED;
      }
      long now = System.nanoTime();
      long remaining = deadline - now;
      if (remaining <= 0) {
        return Ending.TIMED_OUT;
      }
      long slice = Math.min(remaining, pollNanos);
      if (!groupSettled) {
        groupSettled = groupConfirmedOrChildGone();
        if (!groupSettled) {
          slice = Math.min(slice, handshakeSlice);
          handshakeSlice = Math.min(2 * handshakeSlice, HANDSHAKE_MAX_SLICE_NANOS);
        }
      } else if (now - nextTrack >= 0) {
        trackDescendants();
        nextTrack = now + TRACK_INTERVAL_NANOS;
      }
      if (stdoutLost) {
        LockSupport.parkNanos(slice);
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
      } else if (!stdout.isDone()) {
        try {
          stdout.get(slice, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException notYetOrFailed) {
          // examined at the top of the loop
        }
      } else {
        process.waitFor(slice, TimeUnit.NANOSECONDS);
      }
    }
  }

  /** The child's exit code; only after {@link Ending#EXITED}. */
  int exitCode() {
    return process.exitValue();
  }

  /** The captured stdout; only after {@link Ending#EXITED}. */
  byte[] stdoutBytes() {
    return capturedOutput().orElseThrow().bytes();
  }

  /**
   * Stops the whole tree, bounded: records the descendants, sends {@code SIGTERM} to the child, every recorded
   * descendant and every running member of the tree's sessions (the child's session and those of recorded descendants
   * that called {@code setsid}, found in {@code /proc}), waits up to the grace period for all of them to stop running,
   * then sends {@code SIGKILL} the same way, again at every poll while anything still runs (a process forked between
   * a scan and its signal is caught by the next one), and waits up to one more second for them to be gone; the group
   * signal tool is run only if something still runs after the first {@code SIGKILL} round. Signals go to pids
   * directly, without starting a process, so the tree is killed within milliseconds of the grace period's end.
   * Returns early once nothing runs. Idempotent. A pending interrupt is set aside for the bounded waits and restored
   * afterwards.
   */
  void terminate() {
    if (terminated) {
      return;
    }
    terminated = true;
    interruptedWhileStopping |= Thread.interrupted();
    try {
      trackDescendants();
      if (treeGone()) {
        return;
      }
      long graceEnd = System.nanoTime() + graceNanos;
      signalTreeAndCount(Signal.TERM);
      if (awaitTreeGone(graceEnd - System.nanoTime())) {
        return;
      }
      trackDescendants();
      if (!killUntilGone(FIRST_KILL_ROUND_NANOS) && containment.usesProcessGroups()) {
        signalGroupWithTool(Signal.KILL);
      }
      if (!killUntilGone(KILL_CONFIRM_NANOS)) {
        log.warn("ZeoCore subprocess: processes of a terminated child still run 1 s after SIGKILL");
      }
    } finally {
      restoreInterrupt();
    }
  }

  /**
   * Ends the attempt's hold on the child: joins the stdout reader and stdin writer. After a normal exit they get
   * 100 ms; one still blocked then means a leftover process holds a pipe, and the tree is terminated. After a
   * termination they get one second; a thread still blocked after that is abandoned (it ends when the last holder of
   * the pipe exits) and a warning is logged. Then, at the end of every attempt (also a successful one), whatever still
   * runs in the tree's sessions or among its recorded descendants is terminated like a timed-out tree
   * ({@code SIGTERM}, the grace period, {@code SIGKILL}), so a success may take up to the grace period longer when a
   * leftover ignores {@code SIGTERM}. What still escapes: a process that left the child's session ({@code setsid})
   * before it was ever recorded (descendants are recorded every 100 ms while the child runs and when the tree is
   * stopped), such as a daemon made by a double fork plus {@code setsid} whose intermediate parent exited in between,
   * and everything it starts.
   */
  void release() {
    interruptedWhileStopping |= Thread.interrupted();
    try {
      if (!awaitIo(terminated ? IO_JOIN_AFTER_KILL_NANOS : IO_JOIN_AFTER_EXIT_NANOS) && !terminated) {
        terminate();
        interruptedWhileStopping |= Thread.interrupted();
        awaitIo(IO_JOIN_AFTER_KILL_NANOS);
      }
      if (!terminated && !treeGone()) {
        // A background job that let go of stdout (or a child that exited non-zero leaving one) ends with the attempt.
        terminate();
        interruptedWhileStopping |= Thread.interrupted();
      }
      if (!stdout.isDone() || !stdin.isDone()) {
        log.warn("ZeoCore subprocess: a pipe of a finished child is still held open by a process outside its "
            + "tracked tree; abandoning its I/O thread");
      }
    } finally {
      restoreInterrupt();
    }
  }

  private void restoreInterrupt() {
    if (interruptedWhileStopping) {
      interruptedWhileStopping = false;
      Thread.currentThread().interrupt();
    }
  }

  private boolean groupConfirmedOrChildGone() {
    if (!process.isAlive()) {
      return true;
    }
    Optional<ProcStat> stat = ProcStat.read(pid);
    return stat.isEmpty() || !stat.get().running() || stat.get().processGroup() == pid;
  }

  private void trackDescendants() {
    if (!process.isAlive()) {
      return; // an exited child's children were re-parented: there is nothing left to find from here
    }
    try {
      // a recorded pid whose process is gone may have been reused by a new descendant: keep the live one
      handle.descendants().forEach(descendant -> {
        tracked.merge(descendant.pid(), descendant, (recorded, seen) -> recorded.isAlive() ? recorded : seen);
        if (containment.usesProcessGroups() && !sessions.contains(descendant.pid())) {
          ProcStat.read(descendant.pid()).filter(ProcStat::leadsSession)
              .ifPresent(leader -> sessions.add(leader.pid()));
        }
      });
    } catch (RuntimeException unavailable) {
      // keep what was recorded so far
    }
  }

  /**
   * Signals the child, every recorded descendant and every running member of the tree's sessions (one {@code /proc}
   * scan); returns how many of them were still running, so that a {@code SIGKILL} round and its check are one scan.
   */
  private int signalTreeAndCount(Signal signal) {
    int running = 0;
    // The child itself first, directly: once it cannot run, it cannot fork anything the session scan would miss.
    if (runs(handle)) {
      send(handle, signal);
      running++;
    }
    for (ProcessHandle descendant : tracked.values()) {
      if (runs(descendant)) {
        send(descendant, signal);
        running++;
      }
    }
    if (containment.usesProcessGroups()) {
      for (ProcStat member : ProcStat.runningIn(sessions)) {
        ProcessHandle.of(member.pid()).ifPresent(found -> send(found, signal));
        running++;
      }
    }
    return running;
  }

  /** The atomic group signal ({@code kill -s SIG -- -pgid}), for a tree that a scan-and-signal round did not end. */
  private void signalGroupWithTool(Signal signal) {
    try {
      containment.signalGroup(pid, signal);
    } catch (IllegalArgumentException refused) {
      // cannot happen for a pid the kernel just gave a child; the direct signals still went out
      log.error("ZeoCore subprocess: refused to signal process group {}", pid);
    }
  }

  private static void send(ProcessHandle target, Signal signal) {
    try {
      if (signal == Signal.TERM) {
        target.destroy();
      } else {
        target.destroyForcibly();
      }
    } catch (RuntimeException notPermitted) {
      // exited meanwhile, or not ours to signal; the liveness checks decide what happens next
    }
  }

  /** Waits up to {@code boundNanos} for the tree to be gone (after {@code SIGTERM}). */
  private boolean awaitTreeGone(long boundNanos) {
    return pollUntilGone(boundNanos, () -> !treeGone());
  }

  /**
   * Sends {@code SIGKILL} to whatever of the tree still runs, again at every poll, until nothing runs (a process
   * forked between a scan and its signal is caught by the next round) or {@code boundNanos} pass.
   */
  private boolean killUntilGone(long boundNanos) {
    return pollUntilGone(boundNanos, () -> signalTreeAndCount(Signal.KILL) > 0);
  }

  /** Polls {@code stillRunning} (1 ms doubling to 10 ms) until it is false or {@code boundNanos} pass. */
  private boolean pollUntilGone(long boundNanos, BooleanSupplier stillRunning) {
    long deadline = System.nanoTime() + boundNanos;
    long pause = TREE_POLL_FIRST_NANOS;
    while (stillRunning.getAsBoolean()) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      LockSupport.parkNanos(Math.min(pause, remaining));
      interruptedWhileStopping |= Thread.interrupted();
      pause = Math.min(2 * pause, TREE_POLL_MAX_NANOS);
    }
    return true;
  }

  /** Whether nothing of the tree still runs code (zombies count as gone: they hold no pipe and run nothing). */
  private boolean treeGone() {
    if (runs(handle)) {
      return false;
    }
    for (ProcessHandle descendant : tracked.values()) {
      if (runs(descendant)) {
        return false;
      }
    }
    return !containment.usesProcessGroups() || !ProcStat.anyRunningIn(sessions);
  }

  /** Alive to the JDK (same pid and start time) and, where {@code /proc} can tell, not a zombie. */
  private boolean runs(ProcessHandle process) {
    return process.isAlive() && (!containment.hasProcFs() || ProcStat.isRunning(process.pid()));
  }

  private boolean awaitIo(long boundNanos) {
    CompletableFuture<Void> both = CompletableFuture.allOf(stdout, stdin);
    long deadline = System.nanoTime() + boundNanos;
    while (!both.isDone()) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      try {
        both.get(remaining, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        interruptedWhileStopping = true;
      } catch (ExecutionException | TimeoutException doneOrLate) {
        // examined by the loop condition
      }
    }
    return true;
  }

  private Optional<CapturedOutput> capturedOutput() {
    try {
      return Optional.of(stdout.getNow(null));
    } catch (RuntimeException readFailed) {
      return Optional.empty();
    }
  }


  /**
   * Reads stdout up to {@code cap} bytes, holding the stream's monitor throughout and closing the stream before
   * releasing it. When the child exits, the JDK's reaper thread marks the process exited, then takes that monitor to
   * drain whatever the pipe holds <em>at that instant</em> into memory and closes the pipe: a reader arriving after
   * that sees only those bytes and then end-of-file, even though a leftover process may still hold the pipe and write
   * more. So the reader records whether the child was still alive once it held the monitor ({@code owned}): then the
   * pipe is provably the real one until this reader closes it, and end-of-file means every holder closed it. When the
   * child was already gone (a starved machine can delay the reader past a fast child's exit), {@link #await} accepts
   * the bytes only if nothing of the tree still runs; otherwise stdout counts as still held and the attempt runs to
   * its deadline. What remains: a descendant that was running at the drain, wrote more, and exited before that check,
   * a window of microseconds after a child that was not owned; and a process outside the tree (double fork plus
   * {@code setsid}) that holds the pipe.
   */
  private static CapturedOutput readCapped(Process process, int cap) {
    InputStream stream = process.getInputStream();
    synchronized (stream) {
      // The JDK marks the child exited before its reaper drains the pipe, and the drain needs this monitor: a child
      // still alive now proves that the pipe is the real one and stays ours until this reader closes it.
      boolean owned = process.isAlive();
      try (InputStream in = stream) {
        return readLoop(in, cap, owned);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Reads the child's stdout from a FIFO (see {@link StdoutFifo}): opening blocks until the child's redirect opens the
   * write end, the path is unlinked at once, and end-of-file comes only when every holder of the write end closed it.
   */
  private static CapturedOutput readFifo(Path fifo, int cap) {
    try (InputStream in = new FileInputStream(fifo.toFile())) {
      deleteQuietly(fifo);
      return readLoop(in, cap, true);
    } catch (IOException e) {
      deleteQuietly(fifo);
      throw new UncheckedIOException(e);
    }
  }

  /** After a failed spawn: waits (at most one second) for the released reader to close its end. */
  private static void awaitReaderClosed(CompletableFuture<CapturedOutput> reader) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + IO_JOIN_AFTER_KILL_NANOS;
    while (!reader.isDone() && System.nanoTime() - deadline < 0) {
      try {
        reader.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException | TimeoutException doneOrLate) {
        // examined by the loop condition
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * After a failed spawn: opens and closes the write end so that a reader blocked opening the FIFO sees EOF. Never
   * creates the path: when the JDK's redirect already released the reader, the reader has removed the FIFO, and a
   * creating open would leave a regular file behind.
   */
  private static void releaseFifoReader(Path fifo) {
    try (OutputStream ignored = Files.newOutputStream(fifo, StandardOpenOption.WRITE)) {
      // opened and closed
    } catch (IOException | RuntimeException alreadyGone) {
      // the reader opened and removed it already
    }
  }

  private static void deleteQuietly(Path fifo) {
    try {
      Files.deleteIfExists(fifo);
    } catch (IOException ignored) {
      // in the JVM's private directory; removed with it
    }
  }

  private static CapturedOutput readLoop(InputStream in, int cap, boolean owned) throws IOException {
    byte[] buffer = new byte[Math.min(cap, INITIAL_BUFFER_BYTES)];
    int size = 0;
    while (true) {
      if (size == buffer.length) {
        if (size == cap) {
          return in.read() < 0 ? new CapturedOutput(buffer, false, owned) : CapturedOutput.OVERFLOWED;
        }
        buffer = Arrays.copyOf(buffer, (int) Math.min(cap, 2L * buffer.length));
      }
      int read = in.read(buffer, size, buffer.length - size);
      if (read < 0) {
        return new CapturedOutput(size == buffer.length ? buffer : Arrays.copyOf(buffer, size), false, owned);
      }
      size += read;
    }
  }

  /**
   * Writes the request in slices of {@link #STDIN_SLICE_BYTES}: one large {@code write} would make the JDK copy the
   * whole request into a native buffer of the same size first, a second copy of a request that may be many megabytes.
   */
  private static void writeAll(OutputStream stream, byte[] input) {
    try (OutputStream out = stream) {
      for (int offset = 0; offset < input.length; offset += STDIN_SLICE_BYTES) {
        out.write(input, offset, Math.min(STDIN_SLICE_BYTES, input.length - offset));
      }
    } catch (IOException childStoppedReading) {
      // A child may exit without reading its input; its exit code decides the attempt.
    }
  }

  /**
   * What the stdout reader kept: the bytes, or only the fact that there were too many; {@code owned} when the reader
   * took the pipe while the child was still alive, so that the JDK could not have drained it first.
   */
  private record CapturedOutput(byte[] bytes, boolean overflowed, boolean owned) {
    static final CapturedOutput OVERFLOWED = new CapturedOutput(new byte[0], true, true);
  }
}
