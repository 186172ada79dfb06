package io.zeocore.benchmarks;

import static io.zeocore.benchmarks.Contenders.VALUE;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.Timeout;
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
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of an <em>enforced</em> sync deadline ({@code deadline: enforced}) on a blocking call: one successful
 * attempt of a target that blocks for {@link #blockMicros} µs ({@code LockSupport.parkNanos}: the thread really
 * parks; {@code 0} is a call that answers at once), with an attempt timeout of 1 s that is never reached.
 *
 * <ul>
 *   <li>{@code enforcedZeoCore}: ZeoCore runs the call on a worker (a virtual thread on Java 21+, its growing pool of
 *       daemon threads on 17) while the caller waits with a timeout;</li>
 *   <li>{@code timeLimitedResilience4j}: Resilience4j's synchronous {@code TimeLimiter} waits on a {@code Future}
 *       submitted to a pool ({@link Contenders#resilience4jSyncExecutor()}): the same hand-off;</li>
 *   <li>{@code timeoutFailsafe}: Failsafe's {@code Timeout} with {@code withInterrupt()} (without it Failsafe does
 *       not stop a blocking call at all): the call runs on the caller's thread and a timer on Failsafe's scheduler
 *       would interrupt it — cheaper, but a call that ignores the interrupt keeps the caller past the deadline;</li>
 *   <li>{@code cooperativeZeoCore}: ZeoCore's default sync path (no hand-off, nothing enforced) and {@code direct} (no
 *       library): the floors.</li>
 * </ul>
 */
public class EnforcedDeadlineBenchmark extends SuiteSettings {

  @Param({"0", "20"})
  public long blockMicros;

  private SyncExecutionTarget.Invocation<String> syncCall;
  private Callable<String> peerCall;

  private ResilientRunner runner;
  private ExecutionPolicy cooperative;
  private ExecutionPolicy enforced;
  private Map<String, SyncExecutionTarget<String>> targets;

  private TimeLimiter timeLimiter;
  private ExecutorService r4jSyncExecutor;
  private FailsafeExecutor<String> failsafeTimeout;

  private String block() {
    if (blockMicros > 0) {
      LockSupport.parkNanos(blockMicros * 1_000);
    }
    return VALUE;
  }

  @Setup
  public void setUp() throws Exception {
    syncCall = context -> block();
    peerCall = this::block;
    runner = ResilientRunner.create();
    cooperative = Contenders.zeoCorePolicy("call");
    enforced = cooperative.toBuilder().deadline(DeadlineMode.ENFORCED).build();
    targets = Map.of("call", SyncExecutionTarget.of("call", String.class, syncCall));
    timeLimiter = Contenders.resilience4jTimeLimiter();
    r4jSyncExecutor = Contenders.resilience4jSyncExecutor();
    failsafeTimeout = Failsafe.with(Timeout.<String>builder(Contenders.ATTEMPT_TIMEOUT).withInterrupt().build());
    for (ResilientExecutionResult<String> result : List.of(cooperativeZeoCore(), enforcedZeoCore())) {
      if (!result.succeeded() || !VALUE.equals(result.value())) {
        throw new IllegalStateException("ZeoCore did not succeed: " + result);
      }
    }
    if (!VALUE.equals(timeLimitedResilience4j()) || !VALUE.equals(timeoutFailsafe())) {
      throw new IllegalStateException("a peer did not return the value");
    }
  }

  @TearDown
  public void tearDown() {
    r4jSyncExecutor.shutdownNow();
  }

  @Benchmark
  public String direct() {
    return block();
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
    return timeLimiter.executeFutureSupplier(() -> r4jSyncExecutor.submit(peerCall));
  }

  @Benchmark
  public String timeoutFailsafe() {
    return failsafeTimeout.get(peerCall::call);
  }
}
