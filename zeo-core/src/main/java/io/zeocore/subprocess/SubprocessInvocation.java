package io.zeocore.subprocess;

import io.zeocore.InvalidFieldException;
import io.zeocore.execution.FailureKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * One child process to run for one attempt: what to execute, what it receives and how it is stopped. Immutable; the
 * input bytes are copied in (once) and out. A final class rather than a record so that the {@code with…} methods
 * share its validated copies: a 64 MiB request is held once, however many settings are changed after it.
 *
 * <p>Start from {@link #of(String...)} and adjust with the {@code with…} methods, e.g.
 * {@code SubprocessInvocation.of("/usr/bin/python3", "-m", "my_provider").withInputBytes(request)}.
 *
 * <p>Validation, in this order, with these messages (the reference's): an empty argv is rejected with "argv must
 * contain an executable", a non-absolute {@code argv[0]} with "argv[0] must be an absolute executable path", a
 * negative grace with "termination_grace_seconds cannot be negative", a zero or negative poll with
 * "cancellation_poll_seconds must be positive". Then: no {@code null} anywhere but {@code workingDirectory}, no NUL
 * character in argv or the environment, no {@code '='} in an environment name, exit codes in the map between 1 and
 * 255, {@code 1 <= maxOutputBytes <= }{@link #MAX_OUTPUT_BYTES_LIMIT}. Messages never contain input bytes or
 * environment values. Whether {@code argv[0]} is really executable without a shell is checked when a target is
 * built from a fixed invocation and again before every spawn (see {@link SubprocessTargets}).
 *
 * <p>The settings:
 * <ul>
 *   <li>{@code argv}: the executable (an absolute path) and its arguments; passed to the operating system as-is, never
 *       through a shell. Arguments are visible in the process list: put requests in {@code inputBytes}
 *   <li>{@code inputBytes}: written to the child's stdin from a separate thread, then stdin is closed; empty means
 *       stdin is {@code /dev/null}
 *   <li>{@code workingDirectory}: the child's working directory, or {@code null} for the JVM's
 *   <li>{@code environment}: the child's complete environment: the child inherits nothing else from the JVM (no {@code
 *       PATH}, no {@code HOME}); empty by default. Put no secrets here: environments are readable by the same user
 *   <li>{@code terminationGrace}: how long the process group has between {@code SIGTERM} and {@code SIGKILL} when the
 *       attempt is stopped; zero sends {@code SIGKILL} right after {@code SIGTERM}. Default 500 ms
 *   <li>{@code cancellationPoll}: how often the attempt's cancellation token is polled while the child runs. Default
 *       100 ms
 *   <li>{@code maxOutputBytes}: the most stdout bytes kept; one byte more stops the child and fails the attempt with
 *       {@link FailureKind#MALFORMED_RESPONSE}. Default 16 MiB
 *   <li>{@code exitCodeFailureKinds}: how a non-zero exit code is classified, e.g. {@code 75 → TRANSIENT}
 *       (EX_TEMPFAIL); codes not listed are {@link FailureKind#PERMANENT}. A child killed by signal {@code n} exits
 *       with {@code 128 + n}
 * </ul>
 */
public final class SubprocessInvocation {

  /** Default time between {@code SIGTERM} and {@code SIGKILL}. */
  public static final Duration DEFAULT_TERMINATION_GRACE = Duration.ofMillis(500);

  /** Default cancellation-poll interval. */
  public static final Duration DEFAULT_CANCELLATION_POLL = Duration.ofMillis(100);

  /** Default stdout cap: 16 MiB. */
  public static final int DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

  /** The largest stdout cap: the largest array a JVM reliably allocates. */
  public static final int MAX_OUTPUT_BYTES_LIMIT = Integer.MAX_VALUE - 8;

  private static final byte[] NO_INPUT = new byte[0];

  private final List<String> argv;
  private final byte[] inputBytes;
  private final @Nullable Path workingDirectory;
  private final Map<String, String> environment;
  private final Duration terminationGrace;
  private final Duration cancellationPoll;
  private final int maxOutputBytes;
  private final Map<Integer, FailureKind> exitCodeFailureKinds;

  /**
   * An invocation with every setting given; validated as the class documentation says. {@code argv},
   * {@code environment} and {@code exitCodeFailureKinds} are copied, {@code inputBytes} too (once: the {@code with…}
   * methods share this invocation's validated, private copies instead of copying again).
   *
   * @throws InvalidFieldException naming the field and the broken rule
   */
  public SubprocessInvocation(List<String> argv, byte[] inputBytes, @Nullable Path workingDirectory,
      Map<String, String> environment, Duration terminationGrace, Duration cancellationPoll, int maxOutputBytes,
      Map<Integer, FailureKind> exitCodeFailureKinds) {
    // arguments are evaluated in order: the checks run in the reference's order
    this(copyArgv(argv), requireGrace(terminationGrace), requirePoll(cancellationPoll), copyInput(inputBytes),
        workingDirectory, copyEnvironment(environment), requireCap(maxOutputBytes),
        copyExitCodes(exitCodeFailureKinds));
  }

  /** Takes already validated, private values as they are. */
  private SubprocessInvocation(List<String> argv, Duration terminationGrace, Duration cancellationPoll,
      byte[] inputBytes, @Nullable Path workingDirectory, Map<String, String> environment, int maxOutputBytes,
      Map<Integer, FailureKind> exitCodeFailureKinds) {
    this.argv = argv;
    this.inputBytes = inputBytes;
    this.workingDirectory = workingDirectory;
    this.environment = environment;
    this.terminationGrace = terminationGrace;
    this.cancellationPoll = cancellationPoll;
    this.maxOutputBytes = maxOutputBytes;
    this.exitCodeFailureKinds = exitCodeFailureKinds;
  }

  private static List<String> copyArgv(List<String> argv) {
    if (argv == null || argv.isEmpty()) {
      throw new InvalidFieldException("argv", "must contain an executable");
    }
    List<String> copy = Collections.unmodifiableList(new ArrayList<>(argv));
    for (String argument : copy) {
      if (argument == null) {
        throw new InvalidFieldException("argv", "must not contain null entries");
      }
      if (argument.indexOf('\0') >= 0) {
        throw new InvalidFieldException("argv", "must not contain NUL characters");
      }
    }
    if (!isAbsolute(copy.get(0))) {
      throw new InvalidFieldException("argv[0]", "must be an absolute executable path");
    }
    return copy;
  }

  private static Duration requireGrace(Duration terminationGrace) {
    if (terminationGrace == null) {
      throw new InvalidFieldException("terminationGrace", "must not be null");
    }
    if (terminationGrace.isNegative()) {
      throw new InvalidFieldException("terminationGrace", "cannot be negative");
    }
    return terminationGrace;
  }

  private static Duration requirePoll(Duration cancellationPoll) {
    if (cancellationPoll == null) {
      throw new InvalidFieldException("cancellationPoll", "must not be null");
    }
    if (cancellationPoll.isZero() || cancellationPoll.isNegative()) {
      throw new InvalidFieldException("cancellationPoll", "must be positive");
    }
    return cancellationPoll;
  }

  private static byte[] copyInput(byte[] inputBytes) {
    if (inputBytes == null) {
      throw new InvalidFieldException("inputBytes", "must not be null (use an empty array)");
    }
    return inputBytes.length == 0 ? NO_INPUT : inputBytes.clone();
  }

  private static int requireCap(int maxOutputBytes) {
    if (maxOutputBytes < 1 || maxOutputBytes > MAX_OUTPUT_BYTES_LIMIT) {
      throw new InvalidFieldException("maxOutputBytes", "must be between 1 and " + MAX_OUTPUT_BYTES_LIMIT);
    }
    return maxOutputBytes;
  }

  /** An invocation of {@code argv} with every default: no input, empty environment, the JVM's working directory. */
  public static SubprocessInvocation of(List<String> argv) {
    return new SubprocessInvocation(argv, NO_INPUT, null, Map.of(), DEFAULT_TERMINATION_GRACE,
        DEFAULT_CANCELLATION_POLL, DEFAULT_MAX_OUTPUT_BYTES, Map.of());
  }

  /** An invocation of {@code argv} with every default. */
  public static SubprocessInvocation of(String... argv) {
    if (argv == null || argv.length == 0) {
      throw new InvalidFieldException("argv", "must contain an executable");
    }
    return of(Arrays.asList(argv));
  }

  /** The executable (an absolute path) and its arguments, unmodifiable. */
  public List<String> argv() {
    return argv;
  }

  /** A copy of the input bytes (the request written to stdin). */
  public byte[] inputBytes() {
    return inputBytes.clone();
  }

  /** The input bytes without a copy, for the attempt that writes them; never handed to user code. */
  byte[] inputBytesUnsafe() {
    return inputBytes;
  }

  /** The child's working directory, or {@code null} for the JVM's. */
  public @Nullable Path workingDirectory() {
    return workingDirectory;
  }

  /** The child's complete environment, unmodifiable. */
  public Map<String, String> environment() {
    return environment;
  }

  /** The time between {@code SIGTERM} and {@code SIGKILL}. */
  public Duration terminationGrace() {
    return terminationGrace;
  }

  /** How often the cancellation token is polled while the child runs. */
  public Duration cancellationPoll() {
    return cancellationPoll;
  }

  /** The most stdout bytes kept. */
  public int maxOutputBytes() {
    return maxOutputBytes;
  }

  /** The classification of non-zero exit codes, unmodifiable. */
  public Map<Integer, FailureKind> exitCodeFailureKinds() {
    return exitCodeFailureKinds;
  }

  /** A copy with another request on stdin (copied once): the per-call part of an otherwise configured invocation. */
  public SubprocessInvocation withInputBytes(byte[] bytes) {
    return new SubprocessInvocation(argv, terminationGrace, cancellationPoll, copyInput(bytes), workingDirectory,
        environment, maxOutputBytes, exitCodeFailureKinds);
  }

  /** A copy with another working directory ({@code null}: the JVM's). */
  public SubprocessInvocation withWorkingDirectory(@Nullable Path directory) {
    return new SubprocessInvocation(argv, terminationGrace, cancellationPoll, inputBytes, directory, environment,
        maxOutputBytes, exitCodeFailureKinds);
  }

  /** A copy whose child gets exactly {@code variables} as its environment. */
  public SubprocessInvocation withEnvironment(Map<String, String> variables) {
    return new SubprocessInvocation(argv, terminationGrace, cancellationPoll, inputBytes, workingDirectory,
        copyEnvironment(variables), maxOutputBytes, exitCodeFailureKinds);
  }

  /** A copy with another time between {@code SIGTERM} and {@code SIGKILL}. */
  public SubprocessInvocation withTerminationGrace(Duration grace) {
    return new SubprocessInvocation(argv, requireGrace(grace), cancellationPoll, inputBytes, workingDirectory,
        environment, maxOutputBytes, exitCodeFailureKinds);
  }

  /** A copy that polls the cancellation token at another interval. */
  public SubprocessInvocation withCancellationPoll(Duration poll) {
    return new SubprocessInvocation(argv, terminationGrace, requirePoll(poll), inputBytes, workingDirectory,
        environment, maxOutputBytes, exitCodeFailureKinds);
  }

  /** A copy with another stdout cap. */
  public SubprocessInvocation withMaxOutputBytes(int bytes) {
    return new SubprocessInvocation(argv, terminationGrace, cancellationPoll, inputBytes, workingDirectory, environment,
        requireCap(bytes), exitCodeFailureKinds);
  }

  /** A copy that classifies the listed non-zero exit codes as given (others stay {@link FailureKind#PERMANENT}). */
  public SubprocessInvocation withExitCodeFailureKinds(Map<Integer, FailureKind> kinds) {
    return new SubprocessInvocation(argv, terminationGrace, cancellationPoll, inputBytes, workingDirectory, environment,
        maxOutputBytes, copyExitCodes(kinds));
  }

  /** The failure kind of a non-zero {@code exitCode}: the mapped kind, or {@link FailureKind#PERMANENT}. */
  public FailureKind failureKindOfExitCode(int exitCode) {
    return exitCodeFailureKinds.getOrDefault(exitCode, FailureKind.PERMANENT);
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof SubprocessInvocation that
        && argv.equals(that.argv)
        && Arrays.equals(inputBytes, that.inputBytes)
        && Objects.equals(workingDirectory, that.workingDirectory)
        && environment.equals(that.environment)
        && terminationGrace.equals(that.terminationGrace)
        && cancellationPoll.equals(that.cancellationPoll)
        && maxOutputBytes == that.maxOutputBytes
        && exitCodeFailureKinds.equals(that.exitCodeFailureKinds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(argv, Arrays.hashCode(inputBytes), workingDirectory, environment, terminationGrace,
        cancellationPoll, maxOutputBytes, exitCodeFailureKinds);
  }

  /** Shows argv, the working directory and the environment's names; never the input bytes or environment values. */
  @Override
  public String toString() {
    return "SubprocessInvocation[argv=" + argv
        + ", workingDirectory=" + workingDirectory
        + ", environment=" + new TreeSet<>(environment.keySet()) + " (values hidden)"
        + ", inputBytes=(hidden)"
        + ", terminationGrace=" + terminationGrace
        + ", cancellationPoll=" + cancellationPoll
        + ", maxOutputBytes=" + maxOutputBytes
        + ", exitCodeFailureKinds=" + exitCodeFailureKinds + "]";
  }

  private static boolean isAbsolute(String executable) {
    if (executable.isEmpty()) {
      return false;
    }
    try {
      return Path.of(executable).isAbsolute();
    } catch (RuntimeException invalidPath) {
      return false;
    }
  }

  private static Map<String, String> copyEnvironment(Map<String, String> environment) {
    if (environment == null) {
      throw new InvalidFieldException("environment", "must not be null (use an empty map)");
    }
    Map<String, String> copy = new LinkedHashMap<>();
    for (Map.Entry<String, String> variable : environment.entrySet()) {
      String name = variable.getKey();
      if (name == null || name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
        throw new InvalidFieldException("environment", "names must be non-empty and contain neither '=' nor NUL");
      }
      String value = variable.getValue();
      if (value == null) {
        throw new InvalidFieldException("environment", "variable " + name + " has a null value");
      }
      if (value.indexOf('\0') >= 0) {
        throw new InvalidFieldException("environment", "variable " + name + " has a value containing NUL");
      }
      copy.put(name, value);
    }
    return Collections.unmodifiableMap(copy);
  }

  private static Map<Integer, FailureKind> copyExitCodes(Map<Integer, FailureKind> kinds) {
    if (kinds == null) {
      throw new InvalidFieldException("exitCodeFailureKinds", "must not be null (use an empty map)");
    }
    Map<Integer, FailureKind> copy = new TreeMap<>();
    for (Map.Entry<Integer, FailureKind> entry : kinds.entrySet()) {
      Integer code = entry.getKey();
      if (code == null || code < 1 || code > 255) {
        throw new InvalidFieldException("exitCodeFailureKinds", "keys must be exit codes between 1 and 255");
      }
      if (entry.getValue() == null) {
        throw new InvalidFieldException("exitCodeFailureKinds", "maps exit code " + code + " to null");
      }
      copy.put(code, entry.getValue());
    }
    return Collections.unmodifiableMap(copy);
  }
}
