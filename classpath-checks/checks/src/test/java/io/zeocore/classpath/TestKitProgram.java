package io.zeocore.classpath;

import static io.zeocore.test.ZeoCoreAssertions.assertThat;

import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.test.ScriptedHttpServer;
import io.zeocore.test.ScriptedTarget;
import io.zeocore.test.VirtualTime;
import java.time.Duration;
import java.util.Map;

/**
 * On zeo-core-test's class path alone (zeo-core and AssertJ; no JUnit, no Spring, no store): a plan with ten seconds
 * of backoff on virtual time, scripted targets, the assertions, and the scripted HTTP server.
 */
public final class TestKitProgram {

  private TestKitProgram() {}

  public static void main(String[] args) {
    VirtualTime time = new VirtualTime();
    ResilientRunner runner = ResilientRunner.builder().timeSource(time).build();
    ExecutionPolicy policy = ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(30))
        .attemptTimeout(Duration.ofSeconds(8)).attemptTargets("primary", "primary", "fallback")
        .backoff(Duration.ofSeconds(4), Duration.ofSeconds(6)).build();
    ResilientExecutionResult<String> result = runner.runSync(policy, Map.of(
        "primary", ScriptedTarget.of("primary", String.class, time).hangs().failsWith(FailureKind.TRANSIENT).sync(),
        "fallback", ScriptedTarget.of("fallback", String.class, time).answers("ok").sync()));
    assertThat(result).answeredBy("fallback").tookExactly(Duration.ofSeconds(18));
    try (ScriptedHttpServer server = ScriptedHttpServer.start()) {
      Checks.require(server.port() > 0, "a loopback port");
    }
    System.out.println("ok: a plan with 10 s of backoff ran on virtual time in " + time.elapsed() + " of virtual time");
  }
}
