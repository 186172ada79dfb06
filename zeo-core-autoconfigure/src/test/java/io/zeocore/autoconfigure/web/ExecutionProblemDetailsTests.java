package io.zeocore.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.NamedTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * A controller returns {@code executions.run(...).orElseThrow()}: a run that did not succeed is answered with a
 * {@code ProblemDetail} whose status follows the outcome and whose body holds codes and ids only, in Spring MVC and
 * WebFlux; nothing is registered outside web applications.
 */
class ExecutionProblemDetailsTests {

  private static final String P = "zeocore.execution.policies.";
  private static final String CANARY = "canary-91fd-provider-said-sk-live-secret";

  private static final String[] POLICIES = {
      "zeocore.execution.configs.default.total-timeout=10s", "zeocore.execution.configs.default.attempt-timeout=5s",
      P + "slow.attempt-targets=times-out,times-out", P + "broken.attempt-targets=fails", P + "fine.attempt-targets=answers",
      P + "summarize.attempt-targets=times-out,times-out"};

  private final AutoConfigurations autoConfigurations =
      AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class, ZeoCoreProblemDetailsAutoConfiguration.class);

  @Configuration(proxyBeanMethods = false)
  static class Targets {

    @Bean
    NamedTarget<String, String> timesOut() {
      return NamedTarget.of("times-out", String.class, String.class, (question, context) -> {
        throw new SocketTimeoutException(CANARY);
      });
    }

    @Bean
    NamedTarget<String, String> fails() {
      return NamedTarget.of("fails", String.class, String.class, (question, context) -> {
        throw new IllegalStateException(CANARY);
      });
    }

    @Bean
    NamedTarget<String, String> answers() {
      return NamedTarget.of("answers", String.class, String.class, (question, context) -> "answer");
    }

    @Bean
    AskController askController(ZeoCoreExecutions executions) {
      return new AskController(executions);
    }

    @Bean
    SummaryController summaryController(ZeoCoreExecutions executions) {
      return new SummaryController(executions);
    }

    @Bean
    CompletedRuns completedRuns() {
      return new CompletedRuns();
    }
  }

  @RestController
  static class AskController {

    private final ZeoCoreExecutions executions;

    AskController(ZeoCoreExecutions executions) {
      this.executions = executions;
    }

    @GetMapping("/ask/{policy}")
    String ask(@PathVariable("policy") String policy) {
      return executions.run(policy, "question", String.class).orElseThrow();
    }
  }

  // ---- README: "A result as an exception, and as a ProblemDetail" (keep identical) ----

  @RestController
  static class SummaryController {

    private final ZeoCoreExecutions executions;

    SummaryController(ZeoCoreExecutions executions) {
      this.executions = executions;
    }

    @PostMapping("/summaries")
    String summarize(@RequestBody String text) {
      return executions.run("summarize", text, String.class).orElseThrow();
    }
  }

  // ----

  static class CompletedRuns {

    final List<ExecutionCompletedEvent> events = new CopyOnWriteArrayList<>();

    @EventListener
    void on(ExecutionCompletedEvent event) {
      events.add(event);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableWebMvc
  static class MvcApplication {}

  @Configuration(proxyBeanMethods = false)
  @EnableWebFlux
  static class WebFluxApplication {}

  @Test
  void anExhaustedRunIsAGatewayTimeoutProblemWithTheRunsIdAndCodesOnly() {
    new WebApplicationContextRunner().withConfiguration(autoConfigurations)
        .withUserConfiguration(Targets.class, MvcApplication.class).withPropertyValues(POLICIES)
        .run(context -> {
          MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();

          MvcResult answer = mvc.perform(get("/ask/slow"))
              .andExpect(status().isGatewayTimeout())
              .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
              .andExpect(jsonPath("$.status").value(504))
              .andExpect(jsonPath("$.type").value("urn:zeocore:execution:exhausted"))
              .andExpect(jsonPath("$.title").value("ZeoCore execution exhausted"))
              .andExpect(jsonPath("$.outcome").value("exhausted"))
              .andExpect(jsonPath("$.failureKind").value("timeout"))
              .andExpect(jsonPath("$.machineCode").value("ZEO_EXEC_TIMEOUT"))
              .andExpect(jsonPath("$.attempts").value(2))
              .andReturn();

          String executionId = context.getBean(CompletedRuns.class).events.get(0).executionId();
          String body = answer.getResponse().getContentAsString();
          assertThat(executionId).startsWith("exec-");
          assertThat(body).contains("\"executionId\":\"" + executionId + "\"")
              .contains("\"detail\":\"ZeoCore execution " + executionId
                  + " ended exhausted: timeout (ZEO_EXEC_TIMEOUT) after 2 attempts\"")
              .doesNotContain(CANARY, "SocketTimeoutException", "question");
        });
  }

  @Test
  void theReadmesControllerAnswersAnExhaustedRunWithItsProblem() {
    new WebApplicationContextRunner().withConfiguration(autoConfigurations)
        .withUserConfiguration(Targets.class, MvcApplication.class).withPropertyValues(POLICIES)
        .run(context -> {
          MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();

          String body = mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders
                  .post("/summaries").contentType(MediaType.TEXT_PLAIN).content("Hello"))
              .andExpect(status().isGatewayTimeout())
              .andExpect(jsonPath("$.outcome").value("exhausted"))
              .andReturn().getResponse().getContentAsString();

          assertThat(body).contains(context.getBean(CompletedRuns.class).events.get(0).executionId())
              .doesNotContain(CANARY, "Hello");
        });
  }

  @Test
  void eachOutcomeHasItsStatus() {
    new WebApplicationContextRunner().withConfiguration(autoConfigurations)
        .withUserConfiguration(Targets.class, MvcApplication.class).withPropertyValues(POLICIES)
        .run(context -> {
          MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();

          mvc.perform(get("/ask/broken")).andExpect(status().isBadGateway())
              .andExpect(jsonPath("$.outcome").value("failed_safe"))
              .andExpect(jsonPath("$.failureKind").value("permanent"));
          mvc.perform(get("/ask/fine")).andExpect(status().isOk()).andExpect(content().string("answer"));
        });
    assertThat(ExecutionProblemDetails.status(ExecutionOutcome.EXHAUSTED, FailureKind.TRANSIENT))
        .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(ExecutionProblemDetails.status(ExecutionOutcome.EXHAUSTED, FailureKind.RATE_LIMIT))
        .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(ExecutionProblemDetails.status(ExecutionOutcome.CANCELLED, null))
        .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(ExecutionProblemDetails.status(ExecutionOutcome.REFUSED, null))
        .isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
    assertThat(ExecutionProblemDetails.status(ExecutionOutcome.REFUSED, FailureKind.VALIDATION))
        .isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
  }

  @Test
  void webFluxAnswersTheSameProblem() {
    new ReactiveWebApplicationContextRunner().withConfiguration(autoConfigurations)
        .withUserConfiguration(Targets.class, WebFluxApplication.class).withPropertyValues(POLICIES)
        .run(context -> {
          WebTestClient client = WebTestClient.bindToApplicationContext(context).build();

          byte[] body = client.get().uri("/ask/slow").exchange()
              .expectStatus().isEqualTo(HttpStatus.GATEWAY_TIMEOUT)
              .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
              .expectBody()
              .jsonPath("$.machineCode").isEqualTo("ZEO_EXEC_TIMEOUT")
              .jsonPath("$.executionId").isEqualTo(context.getBean(CompletedRuns.class).events.get(0).executionId())
              .returnResult().getResponseBody();

          assertThat(new String(body, java.nio.charset.StandardCharsets.UTF_8)).doesNotContain(CANARY);
        });
  }

  @Test
  void nothingIsRegisteredOutsideWebApplicationsAndAnApplicationsOwnBeanWins() {
    new ApplicationContextRunner().withConfiguration(autoConfigurations).withPropertyValues(POLICIES)
        .withUserConfiguration(Targets.class)
        .run(context -> assertThat(context).doesNotHaveBean(ExecutionProblemDetails.class));
    ExecutionProblemDetails own = new ExecutionProblemDetails();
    new WebApplicationContextRunner().withConfiguration(autoConfigurations).withPropertyValues(POLICIES)
        .withUserConfiguration(Targets.class)
        .withBean("mine", ExecutionProblemDetails.class, () -> own)
        .run(context -> assertThat(context).getBean(ExecutionProblemDetails.class).isSameAs(own));
  }
}
