package io.zeocore.subprocess;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.SyncExecutionTarget;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Targets whose provider is a child process that the operating system stops at the attempt's deadline, with its whole
 * process tree. Use them when a blocking provider can hang and must be stopped by the host rather than trusted to
 * observe a cooperative timeout: the runner owns the policy and the total budget, the subprocess target makes each
 * attempt's share of it a hard boundary.
 *
 * <h2>One attempt</h2>
 * <ol>
 *   <li>If the cancellation token is already cancelled: {@link FailureKind#CANCELLED}, {@code dispatchStarted=false}.
 *   <li>The invocation is the fixed one or the factory's result for this {@link AttemptContext}. A factory that throws
 *       or returns {@code null}: {@link FailureKind#PERMANENT}, {@code dispatchStarted=false} (the exception is the
 *       {@link io.zeocore.execution.AttemptError}'s cause, which ZeoCore never records).
 *   <li>{@code argv[0]} must be a regular, executable ELF binary or a script whose {@code #!} line names an absolute
 *       interpreter satisfying the same rule; the JDK would otherwise run the file through {@code /bin/sh}. A failed
 *       check: {@link FailureKind#PERMANENT}, {@code dispatchStarted=false}, nothing spawned.
 *   <li>The attempt's clock starts (real monotonic time, {@link System#nanoTime()}; the deadline is
 *       {@link AttemptContext#timeout()} from here) and the child is spawned: no shell, argv as given, the environment
 *       is exactly {@link SubprocessInvocation#environment()} ({@code environment().clear()} first, so nothing is
 *       inherited), stderr is discarded at the source (the null device), the input bytes are written to stdin from a
 *       separate thread, stdout is read from another with a cap. A spawn failure (bad working directory, …):
 *       {@link FailureKind#PERMANENT}, {@code dispatchStarted=false}.
 *   <li>On Linux the child is started through {@code /usr/bin/setsid} and so leads its own process group (pgid = pid);
 *       until {@code /proc/<pid>/stat} confirms that, the wait is sliced at 250 µs–1 ms so that the group is known as
 *       early as possible. The handshake runs inside the attempt's deadline, not before it: a stop before it completes
 *       signals the child directly as well as the group id, which is harmless because no group with the child's id
 *       exists until the child creates it. Groups 0 and 1, the JVM's own group and its pid are never signalled.
 *   <li>The attempt waits, polling the cancellation token every {@link SubprocessInvocation#cancellationPoll()}, until
 *       the child has exited <em>and</em> its stdout reached end-of-file. A background process that keeps stdout open
 *       therefore keeps the attempt running until the deadline.
 *   <li>Deadline: {@link FailureKind#TIMEOUT}. Cancellation: {@link FailureKind#CANCELLED}. More than
 *       {@link SubprocessInvocation#maxOutputBytes()} on stdout: {@link FailureKind#MALFORMED_RESPONSE}. stdout
 *       unreadable: {@link FailureKind#PERMANENT}. In each case the tree is stopped first (below) and
 *       {@code dispatchStarted=true}.
 *   <li>Exit code not 0: {@link SubprocessInvocation#failureKindOfExitCode(int)} ({@link FailureKind#PERMANENT} unless
 *       mapped), {@code dispatchStarted=true}.
 *   <li>Exit code 0: {@link StdoutParser#parse} on the complete stdout. A parser exception, a {@code null} or a value
 *       that is not an instance of the response type: {@link FailureKind#MALFORMED_RESPONSE}.
 * </ol>
 *
 * <h2>Stopping the tree</h2>
 * On deadline, cancellation, output overflow or thread interruption: the child's descendants are recorded
 * ({@link ProcessHandle#descendants()}, merged with the descendants recorded every 100 ms while the child ran), and
 * with them the sessions of those that called {@code setsid}; {@code SIGTERM} goes to the child, every recorded
 * descendant and every running member of the tree's sessions (the child's own session, which only its descendants
 * can be in, and those of recorded {@code setsid} descendants, found by scanning {@code /proc}); when
 * {@link SubprocessInvocation#terminationGrace()} has passed since then (earlier if everything stopped),
 * {@code SIGKILL} goes the same way and is repeated at every poll (1–10 ms) while anything still runs, so a process
 * forked between a scan and its signal is caught by the next round; the group signal tool ({@code kill -s KILL --
 * -pgid}) runs only if the first 50 ms of rounds did not end the tree. Signals go to pids directly, without starting
 * a process, so even a tree whose every member ignores {@code SIGTERM} (a {@code setsid} grandchild ignoring
 * {@code SIGTERM} and {@code SIGHUP} under a child ignoring {@code SIGTERM}) is gone within milliseconds of the grace
 * period's end. The attempt waits up to one second for all of them to be gone, reading {@code /proc} because
 * {@link Process#isAlive()} is true for zombies. Then the stdout reader and stdin writer are joined (a reader blocked
 * on a pipe is only freed by killing the pipe's holders, hence kill first, join after), each wait bounded. An attempt
 * therefore ends at most the grace period plus about one second after its deadline, typically a few milliseconds
 * after the grace period (or after {@code SIGTERM} for a well-behaved child). A descendant that called {@code setsid}
 * is reached only if it was recorded, i.e. while its parent still ran; a daemon made by a double fork plus
 * {@code setsid} whose intermediate parent exited before it was recorded escapes, with everything it starts.
 *
 * <p>stdout is a FIFO created for the child, opened by its reader before the child can write (the JDK's pipe, read by
 * a reader parked before the spawn, where no FIFO can be made), so the JDK's process reaper never drains it: end of
 * file means every holder of the write end closed it, and a leftover process holding stdout keeps the attempt running
 * until its deadline.
 *
 * <p>After a normal exit, whatever of the tree still runs (a background job that let go of stdout) is stopped the same
 * way before the attempt returns, so a success may take up to the grace period longer when such a leftover ignores
 * {@code SIGTERM}.
 *
 * <h2>Other platforms</h2>
 * Off Linux (or on a Linux without {@code setsid}, {@code kill} or {@code /proc}) no process group is created: the
 * child and its recorded descendants are signalled one by one through {@link ProcessHandle}. A descendant whose parent
 * has exited is not found there. This degraded mode is logged once as a warning on Linux. On Windows the executable
 * format is not checked (there is no shell fallback).
 *
 * <h2>Fail-fast construction (deliberate)</h2>
 * A deliberate deviation from the reference, recorded in DESIGN: the reference discovers a missing or non-runnable
 * executable only when an attempt spawns it, so a misconfigured provider fails every call at run time. Here
 * {@link #subprocessTarget(String, SubprocessInvocation, Class, StdoutParser)} refuses such an {@code argv[0]} when the
 * target is <em>built</em> (for providers configured in {@code application.yml}, when the application starts), with an
 * {@link IllegalArgumentException} naming the problem. The same check still runs before every spawn (step 3 above),
 * because the file can change afterwards. The factory form cannot check at construction: its argv is known only per
 * attempt.
 *
 * <h2>What never leaves the attempt</h2>
 * stdout, stderr, the exit code, the input bytes and environment values never appear in attempt evidence, exception
 * messages or log lines: failures are {@link io.zeocore.execution.AttemptError}s whose message is the kind's wire
 * value; parser exceptions are dropped. Only the parsed value becomes the result. Logging is at DEBUG and names the
 * target, the attempt number and the failure kind.
 */
public final class SubprocessTargets {

  private SubprocessTargets() {}

  /**
   * A {@link io.zeocore.execution.ExecutionMode#LIVE} target that runs {@code invocation} once per attempt
   * ({@code internalMaxAttempts = 1}).
   *
   * <p>Fails fast by design: an executable that is missing or not runnable is refused here, at construction (at
   * start-up for YAML providers), not at the first attempt; see "Fail-fast construction" above.
   *
   * @throws IllegalArgumentException when an argument is {@code null}, the target id is invalid, or
   *     {@code argv[0]} cannot be executed without a shell now (missing, not executable, neither ELF nor {@code #!}
   *     with an absolute interpreter); it is checked again before every spawn
   */
  public static <T> SyncExecutionTarget<T> subprocessTarget(String targetId, SubprocessInvocation invocation,
      Class<T> responseType, StdoutParser<T> parseStdout) {
    if (invocation == null) {
      throw new IllegalArgumentException("invocation must not be null");
    }
    ExecutableFormat.problem(Path.of(invocation.argv().get(0))).ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
    return subprocessTarget(targetId, context -> invocation, responseType, parseStdout, ProcessContainment.DETECTED);
  }

  /**
   * A {@link io.zeocore.execution.ExecutionMode#LIVE} target that asks {@code invocationFactory} for the invocation
   * of each attempt ({@code internalMaxAttempts = 1}), e.g. to add the per-call request with
   * {@link SubprocessInvocation#withInputBytes(byte[])}. The factory runs on the attempt's thread; if it throws, the
   * attempt is {@link FailureKind#PERMANENT} with {@code dispatchStarted=false}.
   *
   * @throws IllegalArgumentException when an argument is {@code null} or the target id is invalid
   */
  public static <T> SyncExecutionTarget<T> subprocessTarget(String targetId,
      Function<AttemptContext, SubprocessInvocation> invocationFactory, Class<T> responseType,
      StdoutParser<T> parseStdout) {
    return subprocessTarget(targetId, invocationFactory, responseType, parseStdout, ProcessContainment.DETECTED);
  }

  static <T> SyncExecutionTarget<T> subprocessTarget(String targetId,
      Function<AttemptContext, SubprocessInvocation> invocationFactory, Class<T> responseType,
      StdoutParser<T> parseStdout, ProcessContainment containment) {
    if (invocationFactory == null) {
      throw new IllegalArgumentException("invocationFactory must not be null");
    }
    if (parseStdout == null) {
      throw new IllegalArgumentException("parseStdout must not be null");
    }
    SubprocessCall<T> call = new SubprocessCall<>(targetId, invocationFactory, responseType, parseStdout, containment);
    return SyncExecutionTarget.of(targetId, responseType, call);
  }
}
