package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ZeoCoreExecutions;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.zeocore.execution.AsyncExecutionTarget;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MdcAttemptListener;
import io.zeocore.execution.SyncExecutionTarget;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

/** Log lines written by a target carry the run's ids in the MDC (Logback, as Boot applications log). */
class LogCorrelationTests {

  private static final String P = "zeocore.execution.policies.summarize.";
  private static final String CANARY = "canary-input-7d1e";

  private final Logger targetLog = (Logger) LoggerFactory.getLogger("my.application.Summaries");
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class))
      .withPropertyValues(P + "attempt-targets=ollama-local,openai-api", P + "total-timeout=5s",
          P + "attempt-timeout=2s", P + "backoff=10ms", P + "targets=call-time")
      .withBean(Events.class, Events::new)
      .withBean(ResilientRunnerCustomizer.class, () -> runner -> runner.scheduler(scheduler));

  @BeforeEach
  void captureLogs() {
    lines.start();
    targetLog.addAppender(lines);
  }

  @AfterEach
  void release() {
    targetLog.detachAppender(lines);
    scheduler.shutdownNow();
    MDC.clear();
  }

  @Test
  void linesATargetLogsCarryTheRunsExecutionIdPolicyTargetAndAttemptAndTheCallersMdcComesBack() {
    contextRunner.run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
      MDC.put("request.id", "the caller's");
      MDC.put(MdcAttemptListener.POLICY, "outer");

      executions.run("summarize", Map.of(
          "ollama-local", SyncExecutionTarget.of("ollama-local", String.class, attempt -> {
            targetLog.info("calling ollama with {}", CANARY);
            throw new AttemptError(FailureKind.TRANSIENT);
          }),
          "openai-api", SyncExecutionTarget.of("openai-api", String.class, attempt -> {
            targetLog.info("calling openai");
            return "ok";
          })));

      String executionId = context.getBean(Events.class).executionIds().get(0);
      assertThat(context.getBean(Events.class).executionIds()).containsOnly(executionId);
      assertThat(lines.list).hasSize(2);
      assertThat(lines.list.get(0).getMDCPropertyMap())
          .containsEntry(MdcAttemptListener.EXECUTION_ID, executionId)
          .containsEntry(MdcAttemptListener.POLICY, "summarize")
          .containsEntry(MdcAttemptListener.TARGET, "ollama-local")
          .containsEntry(MdcAttemptListener.ATTEMPT, "1")
          .containsEntry("request.id", "the caller's");
      assertThat(lines.list.get(1).getMDCPropertyMap())
          .containsEntry(MdcAttemptListener.EXECUTION_ID, executionId)
          .containsEntry(MdcAttemptListener.TARGET, "openai-api")
          .containsEntry(MdcAttemptListener.ATTEMPT, "2");
      assertThat(lines.list).allSatisfy(line ->
          assertThat(line.getMDCPropertyMap().toString()).doesNotContain(CANARY));
      assertThat(MDC.get(MdcAttemptListener.POLICY)).isEqualTo("outer");
      assertThat(MDC.get(MdcAttemptListener.EXECUTION_ID)).isNull();
      assertThat(MDC.get("request.id")).isEqualTo("the caller's");
    });
  }

  @Test
  void anAsyncAttemptOnTheSchedulerThreadLogsWithTheRunsIdsAndLeavesTheThreadClean() {
    contextRunner.run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      executions.runAsync("summarize", Map.of(
          "ollama-local", AsyncExecutionTarget.of("ollama-local", String.class,
              attempt -> CompletableFuture.failedFuture(new AttemptError(FailureKind.TRANSIENT))),
          "openai-api", AsyncExecutionTarget.of("openai-api", String.class, attempt -> {
            targetLog.info("calling openai from {}", Thread.currentThread().getName());
            return CompletableFuture.completedFuture("ok");
          }))).join();

      assertThat(lines.list).singleElement().satisfies(line -> {
        assertThat(line.getThreadName()).isNotEqualTo(Thread.currentThread().getName());
        assertThat(line.getMDCPropertyMap()).containsEntry(MdcAttemptListener.TARGET, "openai-api")
            .containsEntry(MdcAttemptListener.EXECUTION_ID, context.getBean(Events.class).executionIds().get(0));
      });
      assertThat(scheduler.submit(MDC::getCopyOfContextMap).get()).isNullOrEmpty();
    });
  }

  @Test
  void logCorrelationCanBeSwitchedOff() {
    contextRunner.withPropertyValues("zeocore.execution.log-correlation=false").run(context -> {
      assertThat(context).doesNotHaveBean(MdcAttemptListener.class);
      context.getBean(ZeoCoreExecutions.class).run("summarize", Map.of(
          "ollama-local", SyncExecutionTarget.of("ollama-local", String.class, attempt -> {
            targetLog.info("calling ollama");
            return "ok";
          }),
          "openai-api", SyncExecutionTarget.of("openai-api", String.class, attempt -> "unused")));
      assertThat(lines.list).singleElement()
          .satisfies(line -> assertThat(line.getMDCPropertyMap()).doesNotContainKey(MdcAttemptListener.TARGET));
    });
  }

  /** The execution ids of the starter's events, in order. */
  static final class Events {

    private final List<String> ids = new CopyOnWriteArrayList<>();

    @EventListener
    void attemptRecorded(AttemptRecordedEvent event) {
      ids.add(event.executionId());
    }

    List<String> executionIds() {
      return ids;
    }
  }
}
