package io.zeocore.benchmarks;

import static io.zeocore.benchmarks.Contenders.VALUE;

import io.github.resilience4j.timelimiter.TimeLimiter;
import io.zeocore.execution.DeadlineMode;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of an <em>enforced</em> sync deadline ({@code deadline: enforced}): one successful attempt of a no-op
 * target that ZeoCore runs on a worker (a virtual thread on Java 21+, its bounded pool on 17) while the caller waits
 * with a timeout, against the same shape in Resilience4j, whose synchronous {@code TimeLimiter} waits on a
 * {@code Future} submitted to a pool ({@link Contenders#resilience4jSyncExecutor()}). {@code cooperative} is ZeoCore's
 * default sync path (no hand-off), shown as the floor: the difference is the price of a deadline that does not need
 * the target's cooperation.
 */
public class EnforcedDeadlineBenchmark extends SuiteSettings {

  private final SyncExecutionTarget.Invocation<String> syncNoop = context -> VALUE;
  private final Callable<String> peerSyncNoop = () -> VALUE;

  private ResilientRunner runner;
  private ExecutionPolicy cooperative;
  private ExecutionPolicy enforced;
  private Map<String, SyncExecutionTarget<String>> targets;

  private TimeLimiter timeLimiter;
  private ExecutorService r4jSyncExecutor;

  @Setup
  public void setUp() throws Exception {
    runner = ResilientRunner.create();
    cooperative = Contenders.zeoCorePolicy("noop");
    enforced = cooperative.toBuilder().deadline(DeadlineMode.ENFORCED).build();
    targets = Map.of("noop", SyncExecutionTarget.of("noop", String.class, syncNoop));
    timeLimiter = Contenders.resilience4jTimeLimiter();
    r4jSyncExecutor = Contenders.resilience4jSyncExecutor();
    for (ResilientExecutionResult<String> result : List.of(cooperativeZeoCore(), enforcedZeoCore())) {
      if (!result.succeeded() || !VALUE.equals(result.value())) {
        throw new IllegalStateException("ZeoCore did not succeed: " + result);
      }
    }
    if (!VALUE.equals(timeLimitedResilience4j())) {
      throw new IllegalStateException("Resilience4j did not return the value");
    }
  }

  @TearDown
  public void tearDown() {
    r4jSyncExecutor.shutdownNow();
  }

  @Benchmark
  public ResilientExecutionResult<String> cooperativeZeoCore() {
    return runner.runSync(cooperative, targets);
  }

  @Benchmark
  public ResilientExecutionResult<String> enforcedZeoCore() {
    return runner.runSync(enforced, targets);
  }

  @Benchmark
  public String timeLimitedResilience4j() throws Exception {
    return timeLimiter.executeFutureSupplier(() -> r4jSyncExecutor.submit(peerSyncNoop));
  }
}
