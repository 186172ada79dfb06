package io.zeocore.benchmarks;

import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * Item 4: one call of a trivial child ({@code /bin/echo ok}) through ZeoCore's subprocess target and the runner,
 * against the physical limit, a raw {@link ProcessBuilder} start + read stdout + {@code waitFor} of the same child
 * set up the same way (empty environment, stdin from {@code /dev/null}, stderr discarded).
 *
 * <p>{@code processBuilderSetsid} starts the same child through {@code /usr/bin/setsid}, as ZeoCore does on Linux so
 * that the child leads its own process group: the cost of that extra {@code exec}, shown to separate it from the rest
 * of the target's work (its stdout reader thread, the process-group handshake on {@code /proc}, the descendants
 * snapshot).
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SubprocessCallBenchmark extends SuiteSettings {

  static final String ECHO = "/bin/echo";
  static final String SETSID = "/usr/bin/setsid";
  private static final File DEV_NULL = new File("/dev/null");

  private ResilientRunner runner;
  private ExecutionPolicy policy;
  private Map<String, SyncExecutionTarget<String>> targets;

  @Setup
  public void setUp() throws Exception {
    runner = ResilientRunner.create();
    policy = Contenders.zeoCorePolicy(Duration.ofSeconds(10), Duration.ofSeconds(30), "child");
    targets = Map.of("child", SubprocessTargets.subprocessTarget("child", SubprocessInvocation.of(ECHO, "ok"),
        String.class, stdout -> new String(stdout, StandardCharsets.UTF_8)));
    ResilientExecutionResult<String> result = zeoCore();
    if (!result.succeeded() || !"ok\n".equals(result.value())) {
      throw new IllegalStateException("the subprocess target did not return the child's output: " + result);
    }
    for (String output : List.of(processBuilder(), processBuilderSetsid())) {
      if (!"ok\n".equals(output)) {
        throw new IllegalStateException("the raw call did not return the child's output");
      }
    }
  }

  @Benchmark
  public ResilientExecutionResult<String> zeoCore() {
    return runner.runSync(policy, targets);
  }

  @Benchmark
  public String processBuilder() throws IOException, InterruptedException {
    return raw(ECHO, "ok");
  }

  @Benchmark
  public String processBuilderSetsid() throws IOException, InterruptedException {
    return raw(SETSID, ECHO, "ok");
  }

  /** Start, read all of stdout, wait for the exit: the least a caller can do to get a child's answer. */
  static String raw(String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    Process process = builder.start();
    byte[] stdout;
    try (InputStream out = process.getInputStream()) {
      stdout = out.readAllBytes();
    }
    if (process.waitFor() != 0) {
      throw new IllegalStateException("the child failed");
    }
    return new String(stdout, StandardCharsets.UTF_8);
  }
}
