package io.zeocore.subprocess;

import static io.zeocore.subprocess.ChildProcesses.context;
import static io.zeocore.subprocess.ChildProcesses.executable;
import static io.zeocore.subprocess.ChildProcesses.publish;
import static io.zeocore.subprocess.ChildProcesses.readPid;
import static io.zeocore.subprocess.ChildProcesses.running;
import static io.zeocore.subprocess.ChildProcesses.shellScript;
import static io.zeocore.subprocess.ChildProcesses.sleeperInTheBackground;
import static io.zeocore.subprocess.SubprocessTargets.subprocessTarget;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.AttemptListener;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.CancellationToken;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SettableCancellationToken;
import io.zeocore.execution.SyncExecutionTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

class SubprocessTargetTest {

  static {
    // Before any class of the package creates its logger: DEBUG, so that the log-canary test sees every line.
    System.setProperty("org.slf4j.simpleLogger.log.io.zeocore.subprocess", "debug");
  }

  private static final String CANARY = "canary-91be-child-said-secret";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final StdoutParser<String> AS_TEXT = bytes -> new String(bytes, UTF_8);

  /** The seed's example response. */
  record Reply(@JsonProperty("proposed_units") int proposedUnits) {}

  @TempDir
  Path dir;

  private static <T> T invoke(SyncExecutionTarget<T> target, AttemptContext context) throws Exception {
    return target.invocation().invoke(context);
  }

  private static AttemptError failureOf(SyncExecutionTarget<?> target, AttemptContext context) {
    return catchThrowableOfType(AttemptError.class, () -> target.invocation().invoke(context));
  }

  /** A target named {@code name} that runs a shell script of that name with {@code body}; its stdout is the text. */
  private SyncExecutionTarget<String> scriptTarget(String name, String body) {
    return subprocessTarget(name, SubprocessInvocation.of(shellScript(dir, name, body).toString()), String.class,
        AS_TEXT);
  }

  private static void assertCarriesNoChildText(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).doesNotContain(CANARY);
      assertThat(t.toString()).doesNotContain(CANARY);
    }
  }

  // ---------------------------------------------------------------- success path

  @Test
  void parsesTheSeedsReplyFromStdoutWithJackson() throws Exception {
    Path provider = shellScript(dir, "my_provider",
        "read request\nprintf '{\"proposed_units\": %s}' \"${request#*:}\"");
    SyncExecutionTarget<Reply> target = subprocessTarget("local-provider",
        SubprocessInvocation.of(provider.toString()).withInputBytes("units:7\n".getBytes(UTF_8)),
        Reply.class, stdout -> JSON.readValue(stdout, Reply.class));

    assertThat(target.internalMaxAttempts()).isEqualTo(1);
    assertThat(target.executionMode()).isEqualTo(ExecutionMode.LIVE);
    assertThat(target.responseType()).isEqualTo(Reply.class);
    assertThat(invoke(target, context(Duration.ofSeconds(10)))).isEqualTo(new Reply(7));
  }

  @Test
  void deliversALargeRequestOnStdinWhileReadingStdout() throws Exception {
    byte[] request = new byte[8 * 1024 * 1024];
    new Random(42).nextBytes(request);
    SyncExecutionTarget<byte[]> echo = subprocessTarget("echo",
        SubprocessInvocation.of("/bin/cat").withInputBytes(request), byte[].class, stdout -> stdout);

    byte[] echoed = invoke(echo, context(Duration.ofSeconds(20)));

    assertThat(echoed).hasSameSizeAs(request);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    assertThat(sha.digest(echoed)).isEqualTo(MessageDigest.getInstance("SHA-256").digest(request));
  }

  @Test
  void childThatExitsWithoutReadingALargeRequestStillSucceeds() throws Exception {
    SyncExecutionTarget<String> ignoresInput = subprocessTarget("ignores-input",
        SubprocessInvocation.of("/bin/echo", "fine").withInputBytes(new byte[4 * 1024 * 1024]), String.class,
        AS_TEXT);

    assertThat(invoke(ignoresInput, context(Duration.ofSeconds(10)))).isEqualTo("fine\n");
  }

  @Test
  void childInheritsNoEnvironmentUnlessGivenOne() throws Exception {
    assumeTrue(System.getenv("PATH") != null, "the JVM itself has a PATH to withhold");
    SyncExecutionTarget<String> bare = subprocessTarget("env", SubprocessInvocation.of("/usr/bin/env"),
        String.class, AS_TEXT);
    SyncExecutionTarget<String> given = subprocessTarget("env",
        SubprocessInvocation.of("/usr/bin/env").withEnvironment(Map.of("GREETING", "hello")), String.class, AS_TEXT);

    assertThat(invoke(bare, context(Duration.ofSeconds(10)))).isEmpty();
    assertThat(invoke(given, context(Duration.ofSeconds(10)))).isEqualTo("GREETING=hello\n");
  }

  @Test
  void childRunsInTheGivenWorkingDirectory() throws Exception {
    SyncExecutionTarget<String> pwd = subprocessTarget("pwd",
        SubprocessInvocation.of("/bin/pwd").withWorkingDirectory(dir), String.class, AS_TEXT);

    assertThat(invoke(pwd, context(Duration.ofSeconds(10)))).isEqualTo(dir.toRealPath() + "\n");
  }

  @Test
  void childLeadsItsOwnProcessGroupAndSessionApartFromTheJvm() throws Exception {
    assumeTrue(ProcessContainment.DETECTED.usesProcessGroups(), "Linux process groups");
    // cat's stat: its parent is the script (the child), its group and session must be the child's pid
    Path script = shellScript(dir, "whoami", "/bin/cat /proc/self/stat");
    SyncExecutionTarget<String> target = subprocessTarget("stat", SubprocessInvocation.of(script.toString()),
        String.class, AS_TEXT);

    String stat = invoke(target, context(Duration.ofSeconds(10)));

    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long child = Long.parseLong(fields[1]);
    assertThat(Long.parseLong(fields[2])).as("process group").isEqualTo(child);
    assertThat(Long.parseLong(fields[3])).as("session").isEqualTo(child);
    assertThat(child).isNotEqualTo(ChildProcesses.jvmProcessGroup());
  }

  // ---------------------------------------------------------------- refusals before spawn

  @Test
  void refusesAScriptWithoutAShebangBeforeSpawningIt() {
    Path marker = dir.resolve("ran");
    Path noShebang = executable(dir.resolve("no-shebang"), "echo ran > " + marker + "\n");
    SubprocessInvocation invocation = SubprocessInvocation.of(noShebang.toString());

    assertThatThrownBy(() -> subprocessTarget("no-shebang", invocation, String.class, AS_TEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("#!")
        .hasMessageContaining("/bin/sh")
        .hasMessageContaining(noShebang.toString());

    SyncExecutionTarget<String> viaFactory = subprocessTarget("no-shebang", context -> invocation, String.class,
        AS_TEXT);
    AttemptError error = failureOf(viaFactory, context(Duration.ofSeconds(5)));
    assertThat(error.kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(error.dispatchStarted()).isFalse();
    assertThat(marker).doesNotExist();
  }

  @Test
  void refusesShebangsWithRelativeOrUnusableInterpreters() {
    Path relative = executable(dir.resolve("relative"), "#!sh\necho hi\n");
    Path missing = executable(dir.resolve("missing"), "#!/nonexistent/interpreter\necho hi\n");
    Path chained = executable(dir.resolve("chained"), "#!" + relative + "\necho hi\n");

    assertThatThrownBy(() -> subprocessTarget("a", SubprocessInvocation.of(relative.toString()), String.class, AS_TEXT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute interpreter");
    assertThatThrownBy(() -> subprocessTarget("a", SubprocessInvocation.of(missing.toString()), String.class, AS_TEXT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/nonexistent/interpreter");
    assertThatThrownBy(() -> subprocessTarget("a", SubprocessInvocation.of(chained.toString()), String.class, AS_TEXT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute interpreter");
  }

  @Test
  void acceptsAScriptWhoseInterpreterIsItselfAScript() throws Exception {
    Path inner = shellScript(dir, "inner", "echo \"inner ran for $1\"");
    Path outer = executable(dir.resolve("outer"), "#!" + inner + "\n");

    String out = invoke(subprocessTarget("nested", SubprocessInvocation.of(outer.toString()), String.class, AS_TEXT),
        context(Duration.ofSeconds(10)));

    assertThat(out).isEqualTo("inner ran for " + outer + "\n");
  }

  @Test
  void constructionFailsFastWhenTheExecutableIsMissing() {
    Path missing = dir.resolve("no-such-provider");

    // deliberate (DESIGN): a fixed invocation is checked when the target is built, not at its first attempt
    assertThatThrownBy(() -> subprocessTarget("a", SubprocessInvocation.of(missing.toString()), String.class, AS_TEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(missing.toString());
  }

  @Test
  void refusesMissingAndNonExecutableFilesBeforeSpawn() throws Exception {
    Path notExecutable = dir.resolve("plain.sh");
    Files.writeString(notExecutable, "#!/bin/sh\necho hi\n");
    Path missing = dir.resolve("absent");

    assertThatThrownBy(() -> subprocessTarget("a", SubprocessInvocation.of(notExecutable.toString()), String.class,
        AS_TEXT)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not executable");
    AttemptError error = failureOf(
        subprocessTarget("a", context -> SubprocessInvocation.of(missing.toString()), String.class, AS_TEXT),
        context(Duration.ofSeconds(5)));
    assertThat(error.kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(error.dispatchStarted()).isFalse();
  }

  @Test
  void spawnFailureIsPermanentBeforeDispatch() {
    SyncExecutionTarget<String> badDirectory = subprocessTarget("bad-dir",
        SubprocessInvocation.of("/bin/true").withWorkingDirectory(dir.resolve("no-such-directory")), String.class,
        AS_TEXT);

    AttemptError error = failureOf(badDirectory, context(Duration.ofSeconds(5)));

    assertThat(error.kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(error.dispatchStarted()).isFalse();
  }

  @Test
  void failedSpawnsLeaveNoFileInTheFifoDirectory() throws Exception {
    assumeTrue(ProcessContainment.DETECTED.usesProcessGroups(), "FIFOs are used where process groups are");
    SyncExecutionTarget<String> badDirectory = subprocessTarget("bad-dir",
        SubprocessInvocation.of("/bin/true").withWorkingDirectory(dir.resolve("no-such-directory")), String.class,
        AS_TEXT);
    SyncExecutionTarget<String> argumentTooLong = subprocessTarget("too-long",
        SubprocessInvocation.of("/bin/true", "x".repeat(256 * 1024)), String.class, AS_TEXT);

    for (int i = 0; i < 3; i++) {
      assertThat(failureOf(badDirectory, context(Duration.ofSeconds(5))).dispatchStarted()).isFalse();
      assertThat(failureOf(argumentTooLong, context(Duration.ofSeconds(5))).dispatchStarted()).isFalse();
    }

    try (Stream<Path> left = Files.list(StdoutFifo.directory())) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void invocationFactoryFailureIsPermanentBeforeDispatch() {
    Function<AttemptContext, SubprocessInvocation> throwing = context -> {
      throw new IllegalStateException("no request available");
    };
    Function<AttemptContext, SubprocessInvocation> invalid = context -> SubprocessInvocation.of("relative/tool");

    for (Function<AttemptContext, SubprocessInvocation> factory : List.of(throwing, invalid)) {
      AttemptError error = failureOf(subprocessTarget("factory", factory, String.class, AS_TEXT),
          context(Duration.ofSeconds(5)));
      assertThat(error.kind()).isEqualTo(FailureKind.PERMANENT);
      assertThat(error.dispatchStarted()).isFalse();
    }
  }

  @Test
  void alreadyCancelledAttemptSpawnsNothing() {
    Path marker = dir.resolve("ran");
    Path script = shellScript(dir, "marks", "echo ran > " + marker);
    SettableCancellationToken token = new SettableCancellationToken();
    token.cancel();

    AttemptError error = failureOf(subprocessTarget("marks", SubprocessInvocation.of(script.toString()),
        String.class, AS_TEXT), context(Duration.ofSeconds(5), token));

    assertThat(error.kind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(error.dispatchStarted()).isFalse();
    assertThat(marker).doesNotExist();
  }

  // ---------------------------------------------------------------- classification

  @Test
  void nonZeroExitIsPermanentUnlessMappedAndCarriesNoChildText() {
    Path failing = shellScript(dir, "failing",
        "echo " + CANARY + "-stdout\necho " + CANARY + "-stderr >&2\nexit \"$1\"");
    SubprocessInvocation invocation = SubprocessInvocation.of(failing.toString(), "3")
        .withExitCodeFailureKinds(Map.of(75, FailureKind.TRANSIENT));

    AttemptError permanent = failureOf(subprocessTarget("failing", invocation, String.class, AS_TEXT),
        context(Duration.ofSeconds(10)));
    AttemptError transientFailure = failureOf(subprocessTarget("failing",
        SubprocessInvocation.of(failing.toString(), "75").withExitCodeFailureKinds(invocation.exitCodeFailureKinds()),
        String.class, AS_TEXT), context(Duration.ofSeconds(10)));

    assertThat(permanent.kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(permanent.dispatchStarted()).isTrue();
    assertThat(permanent).hasMessage("permanent").hasNoCause();
    assertThat(transientFailure.kind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(transientFailure.dispatchStarted()).isTrue();
    assertThat(transientFailure).hasMessage("transient").hasNoCause();
    assertCarriesNoChildText(permanent);
  }

  @Test
  void unparseableStdoutIsMalformedAndTheParserMessageIsDropped() {
    Path chatty = shellScript(dir, "chatty", "echo 'not json: " + CANARY + "'");
    SyncExecutionTarget<Reply> target = subprocessTarget("chatty", SubprocessInvocation.of(chatty.toString()),
        Reply.class, stdout -> JSON.readValue(stdout, Reply.class));

    AttemptError error = failureOf(target, context(Duration.ofSeconds(10)));

    assertThat(error.kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(error.dispatchStarted()).isTrue();
    assertThat(error).hasNoCause();
    assertCarriesNoChildText(error);
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void valueOfTheWrongTypeOrNullIsMalformed() {
    Class<Integer> integers = Integer.class;
    StdoutParser wrongType = stdout -> "a string";
    SyncExecutionTarget<Integer> wrong = subprocessTarget("wrong", SubprocessInvocation.of("/bin/true"), integers,
        (StdoutParser<Integer>) wrongType);
    SyncExecutionTarget<Integer> nothing = subprocessTarget("nothing", SubprocessInvocation.of("/bin/true"), integers,
        stdout -> null);

    assertThat(failureOf(wrong, context(Duration.ofSeconds(10))).kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(failureOf(nothing, context(Duration.ofSeconds(10))).kind())
        .isEqualTo(FailureKind.MALFORMED_RESPONSE);
  }

  @Test
  void outputOfExactlyTheCapIsAcceptedAndOneByteMoreIsMalformed() throws Exception {
    SubprocessInvocation fiveBytes = SubprocessInvocation.of("/usr/bin/printf", "12345");

    assertThat(invoke(subprocessTarget("cap", fiveBytes.withMaxOutputBytes(5), String.class, AS_TEXT),
        context(Duration.ofSeconds(10)))).isEqualTo("12345");
    AttemptError over = failureOf(subprocessTarget("cap", fiveBytes.withMaxOutputBytes(4), String.class, AS_TEXT),
        context(Duration.ofSeconds(10)));
    assertThat(over.kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(over.dispatchStarted()).isTrue();
  }

  @Test
  void childFloodingStdoutIsStoppedAtTheCapWithoutTheJvmBufferingTheFlood() {
    Path flood = shellScript(dir, "flood", publish(dir, "leader", "$$") + "\nexec /usr/bin/yes " + CANARY);
    int cap = 1024 * 1024;
    SyncExecutionTarget<String> target = subprocessTarget("flood",
        SubprocessInvocation.of(flood.toString()).withMaxOutputBytes(cap), String.class, AS_TEXT);
    long allocatedBefore = allocatedBytesOfAllThreads();

    AttemptError error = failureOf(target, context(Duration.ofSeconds(30)));

    long allocated = allocatedBytesOfAllThreads() - allocatedBefore;
    assertThat(error.kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(error.dispatchStarted()).isTrue();
    assertCarriesNoChildText(error);
    assertThat(running(readPid(dir.resolve("leader")))).isFalse();
    // yes writes gigabytes per second until stopped; the reader keeps at most the cap (buffer doubling: < 2 x cap)
    assertThat(allocated).isLessThan(64L * 1024 * 1024);
  }

  @Test
  void grandchildFloodingAnInheritedStdoutAfterTheChildExitedIsStoppedAtTheCap() {
    // the child exits first; only then does its grandchild flood the stdout it inherited. The JDK would drain a
    // still-open pipe into memory when the child exits unless the reader holds the stream.
    String body = String.join("\n",
        "(/bin/sleep 1; exec /usr/bin/yes " + CANARY + ") &",
        publish(dir, "grandchild", "$!"),
        "/bin/sleep 0.5",
        "exit 0");
    Path script = shellScript(dir, "flooding-grandchild", body);
    SyncExecutionTarget<String> target = subprocessTarget("flooding-grandchild",
        SubprocessInvocation.of(script.toString()).withMaxOutputBytes(1024 * 1024), String.class, AS_TEXT);
    long allocatedBefore = allocatedBytesOfAllThreads();

    AttemptError error = failureOf(target, context(Duration.ofSeconds(30)));

    long allocated = allocatedBytesOfAllThreads() - allocatedBefore;
    assertThat(error.kind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);
    assertThat(running(readPid(dir.resolve("grandchild")))).isFalse();
    assertThat(allocated).isLessThan(64L * 1024 * 1024);
  }

  // ---------------------------------------------------------------- deadline, cancellation, tree termination

  @Test
  void deadlineStopsTheChildWithItsWholeTreeIncludingAGrandchildThatCalledSetsid() {
    String body = String.join("\n",
        sleeperInTheBackground(dir, "member"),
        "/usr/bin/setsid /bin/sleep 61 &",
        publish(dir, "escapee", "$!"),
        publish(dir, "leader", "$$"),
        "wait");
    SyncExecutionTarget<String> target = scriptTarget("tree", body);
    AtomicLong escapeeGroup = new AtomicLong();
    // never cancels: only observes, while the tree runs, that the escapee really left the child's group
    CancellationToken observer = () -> {
      if (Files.exists(dir.resolve("leader"))) {
        String[] escapee = ChildProcesses.stat(readPid(dir.resolve("escapee")));
        if (escapee != null) {
          escapeeGroup.set(Long.parseLong(escapee[2]));
        }
      }
      return false;
    };

    AttemptError error = failureOf(target, context(Duration.ofSeconds(2), observer));

    assertThat(error.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(error.dispatchStarted()).isTrue();
    long leader = readPid(dir.resolve("leader"));
    long escapee = readPid(dir.resolve("escapee"));
    assertThat(escapeeGroup.get()).as("the escapee's own group").isEqualTo(escapee).isNotEqualTo(leader);
    assertThat(running(leader)).as("child").isFalse();
    assertThat(running(readPid(dir.resolve("member")))).as("grandchild in the group").isFalse();
    assertThat(running(escapee)).as("grandchild that called setsid").isFalse();
  }

  @Test
  void childIgnoringSigtermIsKilledAfterTheGracePeriod() {
    String body = String.join("\n",
        "trap '' TERM",
        sleeperInTheBackground(dir, "sleeper"),
        publish(dir, "leader", "$$"),
        "wait");
    Path stubborn = shellScript(dir, "stubborn", body);
    Path leaderFile = dir.resolve("leader");
    Duration grace = Duration.ofMillis(400);
    SyncExecutionTarget<String> target = subprocessTarget("stubborn",
        SubprocessInvocation.of(stubborn.toString()).withTerminationGrace(grace), String.class, AS_TEXT);

    // stopped as soon as the trap is in place (the leader file is published after it)
    long started = System.nanoTime();
    AttemptError error = failureOf(target, context(Duration.ofSeconds(30), () -> Files.exists(leaderFile)));
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(error.kind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(running(readPid(leaderFile))).isFalse();
    assertThat(running(readPid(dir.resolve("sleeper")))).isFalse();
    // SIGTERM was ignored, so the attempt waited the whole grace period before SIGKILL
    assertThat(took).isGreaterThanOrEqualTo(grace).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void childThatObeysSigtermDoesNotWaitForTheGracePeriod() {
    Path sleeper = shellScript(dir, "sleeper", publish(dir, "leader", "$$") + "\nexec /bin/sleep 60");
    SyncExecutionTarget<String> target = subprocessTarget("sleeper",
        SubprocessInvocation.of(sleeper.toString()).withTerminationGrace(Duration.ofSeconds(30)), String.class,
        AS_TEXT);

    long started = System.nanoTime();
    AttemptError error = failureOf(target, context(Duration.ofSeconds(1)));
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(error.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(running(readPid(dir.resolve("leader")))).isFalse();
    assertThat(took).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void childThatExitedLeavingAGrandchildHoldingStdoutTimesOutAndTheGrandchildIsKilled() {
    String body = String.join("\n",
        sleeperInTheBackground(dir, "grandchild"),
        "echo partial",
        "exit 0");
    SyncExecutionTarget<String> target = scriptTarget("leaves-grandchild", body);

    AttemptError error = failureOf(target, context(Duration.ofSeconds(1)));

    assertThat(error.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(running(readPid(dir.resolve("grandchild")))).isFalse();
  }

  @Test
  void backgroundJobThatLetGoOfStdoutIsEndedWhenTheAttemptSucceeds() throws Exception {
    String body = String.join("\n",
        "/bin/sleep 60 >/dev/null 2>&1 &",
        publish(dir, "background", "$!"),
        "echo done",
        "exit 0");
    SyncExecutionTarget<String> target = scriptTarget("leaves-background-job", body);

    assertThat(invoke(target, context(Duration.ofSeconds(10)))).isEqualTo("done\n");
    assertThat(running(readPid(dir.resolve("background")))).isFalse();
  }

  @Test
  void cancellationMidRunStopsTheChild() {
    Path leaderFile = dir.resolve("leader");
    SyncExecutionTarget<String> target = scriptTarget("long", publish(dir, "leader", "$$") + "\n/bin/sleep 60");

    AttemptError error = failureOf(target, context(Duration.ofSeconds(30), () -> Files.exists(leaderFile)));

    assertThat(error.kind()).isEqualTo(FailureKind.CANCELLED);
    assertThat(error.dispatchStarted()).isTrue();
    assertThat(running(readPid(leaderFile))).isFalse();
  }

  @Test
  void interruptingTheAttemptThreadStopsTheChildAndReportsTheInterrupt() throws Exception {
    Path leaderFile = dir.resolve("leader");
    SyncExecutionTarget<String> target = scriptTarget("long", publish(dir, "leader", "$$") + "\n/bin/sleep 60");
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    Thread attempt = new Thread(() -> {
      try {
        target.invocation().invoke(context(Duration.ofSeconds(30)));
        thrown.complete(null);
      } catch (Throwable t) {
        thrown.complete(t);
      }
    });
    attempt.start();
    long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!Files.exists(leaderFile) && System.nanoTime() < waitUntil) {
      Thread.sleep(5);
    }

    attempt.interrupt();

    assertThat(thrown.get(20, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    assertThat(running(readPid(leaderFile))).isFalse();
  }

  @Test
  void processTreeFallbackStopsTheChildAndItsDescendantsToo() {
    String body = String.join("\n",
        sleeperInTheBackground(dir, "grandchild"),
        publish(dir, "leader", "$$"),
        "wait");
    Path script = shellScript(dir, "tree", body);
    SyncExecutionTarget<String> target = SubprocessTargets.subprocessTarget("tree",
        context -> SubprocessInvocation.of(script.toString()), String.class, AS_TEXT,
        ProcessContainment.processTree());

    AttemptError error = failureOf(target, context(Duration.ofSeconds(1)));

    assertThat(error.kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(running(readPid(dir.resolve("leader")))).isFalse();
    assertThat(running(readPid(dir.resolve("grandchild")))).isFalse();
  }

  @Test
  void neverSignalsTheJvmsOwnProcessGroupOrReservedGroups() {
    assumeTrue(ProcessContainment.DETECTED.usesProcessGroups(), "Linux process groups");
    ProcessContainment containment = ProcessContainment.DETECTED;

    for (long group : new long[] {ChildProcesses.jvmProcessGroup(), ProcessHandle.current().pid(), 0, 1, -1}) {
      assertThatThrownBy(() -> containment.signalGroup(group, ProcessContainment.Signal.TERM))
          .as("group %d", group)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("refusing to signal");
    }
  }

  // ---------------------------------------------------------------- under the runner

  @Test
  void policyFallsBackToTheSecondProviderWhenTheFirstHangsWithinTheTotalBudget() {
    Path hanging = shellScript(dir, "hanging", publish(dir, "leader", "$$") + "\nexec /bin/sleep 60");
    Path provider = shellScript(dir, "my_provider", "/bin/cat");
    byte[] request = "{\"proposed_units\": 3}".getBytes(UTF_8);
    StdoutParser<Reply> reply = stdout -> JSON.readValue(stdout, Reply.class);
    Map<String, SyncExecutionTarget<Reply>> targets = Map.of(
        "hanging-provider", subprocessTarget("hanging-provider",
            context -> SubprocessInvocation.of(hanging.toString()).withInputBytes(request), Reply.class, reply),
        "local-provider", subprocessTarget("local-provider",
            context -> SubprocessInvocation.of(provider.toString()).withInputBytes(request), Reply.class, reply));
    Duration total = Duration.ofSeconds(20);
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .totalTimeout(total)
        .attemptTimeout(Duration.ofMillis(1500))
        .attemptTargets("hanging-provider", "local-provider")
        .build();

    long started = System.nanoTime();
    ResilientExecutionResult<Reply> result = ResilientRunner.create().runSync(policy, targets);
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(result.value()).isEqualTo(new Reply(3));
    assertThat(result.selectedTargetId()).isEqualTo("local-provider");
    assertThat(result.attempts()).hasSize(2);
    AttemptRecord first = result.attempts().get(0);
    assertThat(first.targetId()).isEqualTo("hanging-provider");
    assertThat(first.failureKind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(first.machineCode()).isEqualTo("ZEO_EXEC_TIMEOUT");
    assertThat(first.dispatchStarted()).isTrue();
    assertThat(result.attempts().get(1).outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(running(readPid(dir.resolve("leader")))).isFalse();
    assertThat(took).isLessThan(total);
  }

  @Test
  void evidenceOfFailedRunsCarriesNoStdoutStderrExitCodeRequestOrEnvironment() {
    Path leaky = shellScript(dir, "leaky", String.join("\n",
        "/bin/cat",
        "echo " + CANARY + "-stdout",
        "echo " + CANARY + "-stderr >&2",
        "echo \"$SECRET_SETTING\"",
        "exit 97"));
    SubprocessInvocation invocation = SubprocessInvocation.of(leaky.toString())
        .withInputBytes((CANARY + "-request").getBytes(UTF_8))
        .withEnvironment(Map.of("SECRET_SETTING", CANARY + "-env"));
    List<AttemptRecord> heard = new ArrayList<>();
    ResilientRunner runner = ResilientRunner.builder().listener(new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
        heard.add(record);
      }
    }).build();
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .totalTimeout(Duration.ofSeconds(20))
        .attemptTimeout(Duration.ofSeconds(10))
        .attemptTargets("leaky")
        .build();

    ResilientExecutionResult<String> result = runner.runSync(policy,
        Map.of("leaky", subprocessTarget("leaky", invocation, String.class, AS_TEXT)));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.machineCode()).isEqualTo("ZEO_EXEC_PERMANENT");
    assertThat(heard).hasSize(1);
    String evidence = result + " " + result.attempts() + " " + heard + " " + invocation;
    assertThat(evidence).doesNotContain(CANARY);
  }

  @Test
  void logLinesCarryNoStdoutStderrRequestOrEnvironment() throws Exception {
    assertThat(LoggerFactory.getLogger(SubprocessCall.class).isDebugEnabled())
        .as("DEBUG is on for the package (set before its loggers exist)").isTrue();
    Path leaky = shellScript(dir, "leaky", String.join("\n",
        "/bin/cat",
        "echo " + CANARY + "-stdout",
        "echo " + CANARY + "-stderr >&2",
        "echo \"$SECRET_SETTING\"",
        "exit \"$1\""));
    SubprocessInvocation exits3 = SubprocessInvocation.of(leaky.toString(), "3")
        .withInputBytes((CANARY + "-request").getBytes(UTF_8))
        .withEnvironment(Map.of("SECRET_SETTING", CANARY + "-env"));
    SubprocessInvocation exits0 = SubprocessInvocation.of(leaky.toString(), "0")
        .withInputBytes((CANARY + "-request").getBytes(UTF_8))
        .withEnvironment(Map.of("SECRET_SETTING", CANARY + "-env"));
    PrintStream originalErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, UTF_8));
    try {
      failureOf(subprocessTarget("leaky", exits3, String.class, AS_TEXT), context(Duration.ofSeconds(10)));
      failureOf(subprocessTarget("leaky", exits0, Reply.class, stdout -> JSON.readValue(stdout, Reply.class)),
          context(Duration.ofSeconds(10)));
      failureOf(subprocessTarget("leaky", exits0.withMaxOutputBytes(8), String.class, AS_TEXT),
          context(Duration.ofSeconds(10)));
      failureOf(subprocessTarget("leaky", context -> {
        throw new IllegalStateException("factory failed");
      }, String.class, AS_TEXT), context(Duration.ofSeconds(10)));
    } finally {
      System.setErr(originalErr);
    }

    String logged = captured.toString(UTF_8);
    assertThat(logged).contains("subprocess target leaky").contains("permanent").contains("malformed_response");
    assertThat(logged).doesNotContain(CANARY).doesNotContain("factory failed");
  }

  private static long allocatedBytesOfAllThreads() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long total = 0;
    for (long allocated : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      total += Math.max(0, allocated);
    }
    return total;
  }
}
