package io.zeocore.autoconfigure.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.autoconfigure.llm.ZeoCoreLlmAutoConfiguration;
import io.zeocore.autoconfigure.subprocess.ZeoCoreSubprocessAutoConfiguration;
import io.zeocore.autoconfigure.validation.ZeoCoreConfigurationKeysAutoConfiguration;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a restart on a current store must not cost (BENCHMARKS.md item 6): the work that made start-up slow before and
 * that nothing on that path needs. Each start runs in a child JVM of its own, which logs every class it loads.
 */
class RestartFootprintTests {

  private static final Pattern LOADED = Pattern.compile("\\[class,load\\s*] (\\S+) source:");

  @TempDir
  Path temp;

  @Test
  void aRestartOnACurrentStoreRunsNoFlywayNoJsonMapperAndNoProcess() throws Exception {
    Path store = temp.resolve("data").resolve("zeocore.db");
    List<String> first = start(store);
    assertThat(first).as("the first start migrates the new file with Flyway")
        .anyMatch(name -> name.equals("org.flywaydb.core.Flyway"));

    List<String> restart = start(store);

    assertThat(restart).as("Flyway: the schema is found current without it")
        .noneMatch(name -> name.startsWith("org.flywaydb.") && !name.endsWith("Exception"));
    assertThat(restart).as("no JSON mapper is built (the configuration-key check reads the metadata itself)")
        .noneMatch(name -> name.endsWith(".databind.ser.BeanSerializerFactory"));
    assertThat(restart).as("no process (sqlite-jdbc's platform detection would start 'uname')")
        .noneMatch(name -> name.equals("java.lang.ProcessBuilder"));
  }

  /** One start of {@link App} on {@code store}; returns the names of the classes the child JVM loaded. */
  private List<String> start(Path store) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
    // Spring Boot's background pre-initializer is off: with spring-web on this class path it builds a JSON mapper of
    // its own, and what this test checks is ZeoCore's part of a start-up (building a mapper loads its serializer
    // factory)
    Process child = new ProcessBuilder(java, "-Xshare:auto", "-Xlog:class+load=info", "-Djava.io.tmpdir=" + temp,
        "-Dspring.backgroundpreinitializer.ignore=true", "-cp", System.getProperty("java.class.path"),
        App.class.getName(), store.toString()).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(output.lines().filter(line -> !line.contains("[class,load")).toList()
        .toString()).isZero();
    assertThat(output).contains("footprint: store started");
    List<String> loaded = new ArrayList<>();
    Matcher matcher = LOADED.matcher(output);
    while (matcher.find()) {
      loaded.add(matcher.group(1));
    }
    assertThat(loaded).as("the child logged the classes it loaded").hasSizeGreaterThan(1000);
    return loaded;
  }

  /** ZeoCore's own auto-configurations with the embedded store switched on, and nothing else. */
  @SpringBootConfiguration
  @ImportAutoConfiguration({ZeoCoreConfigurationKeysAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class,
      ZeoCoreLlmAutoConfiguration.class, ZeoCoreSubprocessAutoConfiguration.class,
      ZeoCoreConnectionsAutoConfiguration.class})
  public static class App {

    public static void main(String[] args) {
      try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
          .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
          .run("--zeocore.connections.store.path=" + args[0], "--logging.level.root=WARN")) {
        if (context.getBeanProvider(JdbcConnectionStore.class).getIfAvailable() != null) {
          System.out.println("footprint: store started");
        }
      }
    }
  }
}
