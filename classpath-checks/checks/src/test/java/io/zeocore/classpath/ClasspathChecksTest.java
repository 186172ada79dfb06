package io.zeocore.classpath;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each artifact does one real thing in a child JVM whose class path is exactly what an application depending on it
 * gets (its consumer module's resolved runtime class path) plus the program's own classes: a class the artifact uses
 * but does not declare fails the check with {@code NoClassDefFoundError}.
 */
class ClasspathChecksTest {

  @ParameterizedTest(name = "{0} on its own class path")
  @CsvSource({
      "runner, io.zeocore.classpath.RunnerProgram",
      "connections, io.zeocore.classpath.ConnectionsProgram",
      "spring-ai, io.zeocore.classpath.SpringAiProgram",
      "spring-boot-runner, io.zeocore.classpath.SpringBootRunnerProgram",
      "test-kit, io.zeocore.classpath.TestKitProgram"})
  void eachArtifactRunsOnExactlyItsDeclaredDependencies(String artifact, String program) throws Exception {
    String resolved = Files.readString(Path.of("..", artifact, "target", "runtime.classpath")).strip();
    String classPath = resolved + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath();
    Path output = Files.createTempFile("classpath-check-" + artifact, ".log");
    Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classPath, program))
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();

    assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("%s finished", program).isTrue();
    String log = Files.readString(output);
    assertThat(child.exitValue()).as("%s exit status; its output:%n%s", program, log).isZero();
    assertThat(log).contains("ok: ");
  }
}
