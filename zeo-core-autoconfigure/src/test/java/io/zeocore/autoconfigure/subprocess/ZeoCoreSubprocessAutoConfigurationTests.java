package io.zeocore.autoconfigure.subprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ZeoCoreSubprocessAutoConfigurationTests {

  private static final String P = "zeocore.subprocess.providers.";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreSubprocessAutoConfiguration.class,
          ZeoCoreExecutionAutoConfiguration.class))
      .withPropertyValues("zeocore.execution.configs.default.total-timeout=20s",
          "zeocore.execution.configs.default.attempt-timeout=10s");

  @Test
  void bindsEveryProviderSetting(@TempDir Path directory) {
    contextRunner.withPropertyValues(P + "local-provider.argv=/usr/bin/env,-0",
        P + "local-provider.working-directory=" + directory, P + "local-provider.environment.GREETING=hi",
        P + "local-provider.termination-grace=50ms", P + "local-provider.cancellation-poll=20ms",
        P + "local-provider.max-output=1MB", P + "local-provider.exit-codes.75=transient")
        .run(context -> {
          SubprocessProviders providers = context.getBean(SubprocessProviders.class);
          assertThat(providers.ids()).containsExactly("local-provider");
          assertThat(providers.invocation("local-provider")).isEqualTo(SubprocessInvocation.of("/usr/bin/env", "-0")
              .withWorkingDirectory(directory).withEnvironment(Map.of("GREETING", "hi"))
              .withTerminationGrace(Duration.ofMillis(50)).withCancellationPoll(Duration.ofMillis(20))
              .withMaxOutputBytes(1024 * 1024).withExitCodeFailureKinds(Map.of(75, FailureKind.TRANSIENT)));
        });
  }

  @Test
  void providerTargetsRunARealChildWithTheCallsRequestOnStdinUnderAPolicy() {
    contextRunner.withPropertyValues(P + "echo.argv=/bin/cat",
        P + "greeter.argv=/bin/sh,-c,printf '%s' \"$GREETING\"", P + "greeter.environment.GREETING=hello",
        P + "tempfail.argv=/bin/sh,-c,exit 75", P + "tempfail.exit-codes.75=transient",
        P + "tiny.argv=/bin/cat", P + "tiny.max-output=4B",
        "zeocore.execution.policies.echo.attempt-targets=tempfail,echo",
        "zeocore.execution.policies.greet.attempt-targets=greeter",
        "zeocore.execution.policies.tiny.attempt-targets=tiny")
        .run(context -> {
          SubprocessProviders providers = context.getBean(SubprocessProviders.class);
          ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
          byte[] request = "ping".getBytes(StandardCharsets.UTF_8);

          ResilientExecutionResult<String> echoed = executions.run("echo", List.of(
              providers.target("tempfail", request, String.class, ZeoCoreSubprocessAutoConfigurationTests::text),
              providers.target("echo", request, String.class, ZeoCoreSubprocessAutoConfigurationTests::text)));
          assertThat(echoed.value()).isEqualTo("ping");
          assertThat(echoed.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);

          ResilientExecutionResult<String> greeted = executions.run("greet", List.of(providers.target("greeter",
              new byte[0], String.class, ZeoCoreSubprocessAutoConfigurationTests::text)));
          assertThat(greeted.value()).isEqualTo("hello");

          ResilientExecutionResult<String> overflow = executions.run("tiny", List.of(providers.target("tiny",
              "more than four bytes".getBytes(StandardCharsets.UTF_8), String.class,
              ZeoCoreSubprocessAutoConfigurationTests::text)));
          assertThat(overflow.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
          assertThat(overflow.failureKind()).isEqualTo(FailureKind.MALFORMED_RESPONSE);

          assertThatIllegalArgumentException()
              .isThrownBy(() -> providers.target("unknown", request, String.class, bytes -> "x"))
              .withMessageContaining("no subprocess provider named 'unknown'; configured: echo, greeter, "
                  + "tempfail, tiny");
        });
  }

  @Test
  void providerThatCannotRunStopsStartUpNamingTheProperty(@TempDir Path directory) throws Exception {
    assertInvalid(contextRunner.withPropertyValues(P + "p.argv=/no/such/provider"),
        "zeocore.subprocess.providers.p.argv[0]", "executable does not exist or is not a regular file");
    Path noShebang = Files.writeString(directory.resolve("provider"), "echo hi\n");
    noShebang.toFile().setExecutable(true);
    assertInvalid(contextRunner.withPropertyValues(P + "p.argv=" + noShebang),
        "zeocore.subprocess.providers.p.argv[0]", "neither a native binary nor a script starting with #!");
    assertInvalid(contextRunner.withPropertyValues(P + "p.argv=python3,-m,provider"),
        "zeocore.subprocess.providers.p.argv[0]", "argv[0] must be an absolute executable path");
    assertInvalid(contextRunner.withPropertyValues(P + "p.argv=/bin/cat", P + "p.termination-grace=-1s"),
        "zeocore.subprocess.providers.p.termination-grace", "termination-grace cannot be negative");
    assertInvalid(contextRunner.withPropertyValues(P + "p.argv=/bin/cat", P + "p.max-output=0B"),
        "zeocore.subprocess.providers.p.max-output", "max-output must be between 1B and");
    assertInvalid(contextRunner.withPropertyValues(P + "[bad id].argv=/bin/cat"),
        "zeocore.subprocess.providers.bad id", "the provider id is its target id: target id must match");
  }

  @Test
  void backsOffWhenDisabledWithoutTheLibraryOrForAUserBean() {
    contextRunner.withPropertyValues("zeocore.subprocess.enabled=false", P + "p.argv=/no/such/provider")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SubprocessProviders.class));
    contextRunner.withClassLoader(new FilteredClassLoader(SubprocessTargets.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SubprocessProviders.class));
    SubprocessProviders mine = SubprocessProviders.of(Map.of("mine", SubprocessInvocation.of("/bin/cat")));
    contextRunner.withBean(SubprocessProviders.class, () -> mine).withPropertyValues(P + "p.argv=/no/such/provider")
        .run(context -> assertThat(context.getBean(SubprocessProviders.class)).isSameAs(mine));
  }

  private static String text(byte[] stdout) {
    return new String(stdout, StandardCharsets.UTF_8);
  }

  private static void assertInvalid(ApplicationContextRunner runner, String property, String reason) {
    runner.run(context -> assertThat(context.getStartupFailure()).rootCause()
        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, invalid -> {
          assertThat(invalid.getName()).isEqualTo(property);
          assertThat(invalid.getReason()).contains(reason);
        }));
  }
}
