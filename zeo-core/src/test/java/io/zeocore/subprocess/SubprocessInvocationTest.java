package io.zeocore.subprocess;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.InvalidFieldException;
import io.zeocore.execution.FailureKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubprocessInvocationTest {

  private static final String CANARY = "canary-5d21-request-secret";

  private static SubprocessInvocation invocation(List<String> argv, Duration grace, Duration poll) {
    return new SubprocessInvocation(argv, new byte[0], null, Map.of(), grace, poll, 1024, Map.of());
  }

  @Test
  void defaultsMatchTheReference() {
    SubprocessInvocation invocation = SubprocessInvocation.of("/bin/cat");

    assertThat(invocation.argv()).containsExactly("/bin/cat");
    assertThat(invocation.inputBytes()).isEmpty();
    assertThat(invocation.workingDirectory()).isNull();
    assertThat(invocation.environment()).isEmpty();
    assertThat(invocation.terminationGrace()).isEqualTo(Duration.ofMillis(500));
    assertThat(invocation.cancellationPoll()).isEqualTo(Duration.ofMillis(100));
    assertThat(invocation.maxOutputBytes()).isEqualTo(16 * 1024 * 1024);
    assertThat(invocation.exitCodeFailureKinds()).isEmpty();
  }

  @Test
  void validatesInTheReferencesOrderWithItsMessages() {
    Duration negative = Duration.ofMillis(-1);
    assertThatThrownBy(() -> invocation(List.of(), negative, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("argv must contain an executable");
    assertThatThrownBy(() -> SubprocessInvocation.of())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("argv must contain an executable");
    assertThatThrownBy(() -> invocation(List.of("cat"), negative, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("argv[0] must be an absolute executable path");
    assertThatThrownBy(() -> invocation(List.of(""), negative, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("argv[0] must be an absolute executable path");
    assertThatThrownBy(() -> invocation(List.of("/bin/cat"), negative, Duration.ZERO))
        .isInstanceOfSatisfying(InvalidFieldException.class, invalid -> {
          assertThat(invalid.field()).isEqualTo("terminationGrace");
          assertThat(invalid.rule()).isEqualTo("cannot be negative");
        }).hasMessage("terminationGrace cannot be negative");
    assertThatThrownBy(() -> invocation(List.of("/bin/cat"), Duration.ZERO, Duration.ZERO))
        .isInstanceOf(InvalidFieldException.class).hasMessage("cancellationPoll must be positive");
    assertThatThrownBy(() -> invocation(List.of("/bin/cat"), Duration.ZERO, Duration.ofMillis(-5)))
        .isInstanceOf(InvalidFieldException.class).hasMessage("cancellationPoll must be positive");
    assertThat(invocation(List.of("/bin/cat"), Duration.ZERO, Duration.ofMillis(1)).terminationGrace()).isZero();
  }

  @Test
  void rejectsNullsNulCharactersAndOutOfRangeSettings() {
    SubprocessInvocation base = SubprocessInvocation.of("/bin/cat");

    assertThatThrownBy(() -> SubprocessInvocation.of(Arrays.asList("/bin/cat", null)))
        .hasMessage("argv must not contain null entries");
    assertThatThrownBy(() -> SubprocessInvocation.of("/bin/cat", "a\0b"))
        .hasMessage("argv must not contain NUL characters");
    assertThatThrownBy(() -> base.withInputBytes(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> base.withTerminationGrace(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> base.withMaxOutputBytes(0)).hasMessageStartingWith("maxOutputBytes must be between 1 and");
    assertThatThrownBy(() -> base.withExitCodeFailureKinds(Map.of(0, FailureKind.TRANSIENT)))
        .hasMessageContaining("between 1 and 255");
    assertThatThrownBy(() -> base.withExitCodeFailureKinds(Map.of(256, FailureKind.TRANSIENT)))
        .hasMessageContaining("between 1 and 255");
    assertThatThrownBy(() -> base.withEnvironment(Map.of("A=B", "x"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> base.withEnvironment(Map.of("", "x"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectedEnvironmentValuesAreNotEchoedInTheMessage() {
    SubprocessInvocation base = SubprocessInvocation.of("/bin/cat");
    Map<String, String> withNull = new HashMap<>();
    withNull.put("TOKEN", null);

    assertThatThrownBy(() -> base.withEnvironment(Map.of("TOKEN", CANARY + "\0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TOKEN")
        .hasMessageNotContaining(CANARY);
    assertThatThrownBy(() -> base.withEnvironment(withNull)).hasMessageContaining("TOKEN");
  }

  @Test
  void textualFormHidesInputBytesAndEnvironmentValues() {
    SubprocessInvocation invocation = SubprocessInvocation.of("/usr/bin/python3", "-m", "my_provider")
        .withInputBytes((CANARY + "-request").getBytes(UTF_8))
        .withEnvironment(Map.of("PROVIDER_MODE", CANARY + "-env"))
        .withWorkingDirectory(Path.of("/srv/provider"));

    assertThat(invocation.toString())
        .doesNotContain(CANARY)
        .contains("/usr/bin/python3", "my_provider", "/srv/provider", "PROVIDER_MODE");
  }

  @Test
  void inputBytesAreCopiedInAndOut() {
    byte[] request = "units:7".getBytes(UTF_8);
    SubprocessInvocation invocation = SubprocessInvocation.of("/bin/cat").withInputBytes(request);

    request[0] = 'X';
    invocation.inputBytes()[1] = 'X';

    assertThat(invocation.inputBytes()).isEqualTo("units:7".getBytes(UTF_8));
    assertThat(invocation).isEqualTo(SubprocessInvocation.of("/bin/cat").withInputBytes("units:7".getBytes(UTF_8)))
        .hasSameHashCodeAs(SubprocessInvocation.of("/bin/cat").withInputBytes("units:7".getBytes(UTF_8)));
    assertThat(invocation).isNotEqualTo(SubprocessInvocation.of("/bin/cat").withInputBytes("units:8".getBytes(UTF_8)));
  }

  @Test
  void aLargeRequestIsCopiedOnceHoweverManySettingsChangeAfterIt() {
    byte[] request = new byte[1024 * 1024];
    SubprocessInvocation withRequest = SubprocessInvocation.of("/bin/cat").withInputBytes(request);

    SubprocessInvocation adjusted = withRequest.withTerminationGrace(Duration.ofSeconds(1))
        .withCancellationPoll(Duration.ofMillis(50)).withMaxOutputBytes(4096).withWorkingDirectory(Path.of("/tmp"))
        .withEnvironment(Map.of("MODE", "fast")).withExitCodeFailureKinds(Map.of(75, FailureKind.TRANSIENT));

    assertThat(withRequest.inputBytesUnsafe()).isNotSameAs(request);
    assertThat(adjusted.inputBytesUnsafe()).isSameAs(withRequest.inputBytesUnsafe());
    assertThat(adjusted.argv()).isSameAs(withRequest.argv());
  }

  @Test
  void settingsChangedAfterConstructionAreValidatedLikeTheConstructorsArguments() {
    SubprocessInvocation invocation = SubprocessInvocation.of("/bin/cat");

    assertThatThrownBy(() -> invocation.withTerminationGrace(Duration.ofMillis(-1)))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("terminationGrace");
    assertThatThrownBy(() -> invocation.withCancellationPoll(Duration.ZERO))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("cancellationPoll");
    assertThatThrownBy(() -> invocation.withMaxOutputBytes(0))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("maxOutputBytes");
    assertThatThrownBy(() -> invocation.withInputBytes(null))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("inputBytes");
    assertThatThrownBy(() -> invocation.withEnvironment(Map.of("A=B", "x")))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("environment");
    assertThatThrownBy(() -> invocation.withExitCodeFailureKinds(Map.of(0, FailureKind.TRANSIENT)))
        .isInstanceOf(InvalidFieldException.class).hasMessageContaining("exitCodeFailureKinds");
  }

  @Test
  void withInputBytesKeepsEverythingElseForPerCallRequests() {
    SubprocessInvocation configured = SubprocessInvocation.of("/usr/bin/python3", "-m", "my_provider")
        .withTerminationGrace(Duration.ofSeconds(2))
        .withMaxOutputBytes(1_000_000)
        .withEnvironment(Map.of("MODE", "fast"))
        .withExitCodeFailureKinds(Map.of(75, FailureKind.TRANSIENT));

    SubprocessInvocation call = configured.withInputBytes("{}".getBytes(UTF_8));

    assertThat(call.argv()).isEqualTo(configured.argv());
    assertThat(call.terminationGrace()).isEqualTo(Duration.ofSeconds(2));
    assertThat(call.maxOutputBytes()).isEqualTo(1_000_000);
    assertThat(call.environment()).isEqualTo(Map.of("MODE", "fast"));
    assertThat(call.failureKindOfExitCode(75)).isEqualTo(FailureKind.TRANSIENT);
    assertThat(call.failureKindOfExitCode(1)).isEqualTo(FailureKind.PERMANENT);
    assertThat(call.inputBytes()).isEqualTo("{}".getBytes(UTF_8));
  }
}
