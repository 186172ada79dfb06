package io.zeocore.classpath;

import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import java.util.Locale;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application of the runner alone (the auto-configuration, zeo-core and the actuator; no
 * zeo-connections, no zeo-spring-ai): it starts, runs a YAML-style policy with a fallback between two target beans,
 * counts the attempts in its meters and shows the policy on the actuator endpoint.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class SpringBootRunnerProgram {

  @Bean
  NamedTarget<String, String> primary() {
    return NamedTarget.of("primary", String.class, String.class, (text, context) -> {
      throw new AttemptError(FailureKind.TRANSIENT);
    });
  }

  @Bean
  NamedTarget<String, String> backup() {
    return NamedTarget.of("backup", String.class, String.class,
        (text, context) -> text.toUpperCase(Locale.ROOT));
  }

  public static void main(String[] args) {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SpringBootRunnerProgram.class)
        .web(WebApplicationType.NONE)
        .properties("zeocore.execution.policies.shout.attempt-targets=primary,backup",
            "zeocore.execution.policies.shout.total-timeout=20s",
            "zeocore.execution.policies.shout.attempt-timeout=10s",
            "spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=zeocore")
        .run(args)) {
      ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class)
          .run("shout", "hello", String.class);

      Checks.require(result.outcome() == ExecutionOutcome.SUCCEEDED, "outcome " + result.outcome());
      Checks.require("HELLO".equals(result.value()), "value");
      Checks.require(context.getBean(MeterRegistry.class).get("zeocore.execution.attempts").counters().size() == 2,
          "an attempts counter per target");
      Checks.require(context.getBean(ZeoCoreEndpoint.class).zeocore().policies().containsKey("shout"),
          "the endpoint shows the policy");
      System.out.println("ok: a runner-only Spring Boot application fell back from primary to backup");
    }
  }
}
